// Clean multi-turn conversations (no cancel, nothing to repair) through the multi-agent apps people build:
// createSupervisor, createSwarm, createDeepAgent with a subagent, and createAgent. Through the checkpointer, and
// through sanitizeGraph, the models receive exactly the requests they receive on the raw saver, and getState /
// getStateHistory read exactly as raw, turn after turn.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createSupervisor } from "@langchain/langgraph-supervisor";
import { createHandoffTool, createSwarm } from "@langchain/langgraph-swarm";
import { createDeepAgent } from "deepagents";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { sanitizeGraph, SanitizingCheckpointer } from "../../src/index.js";
import { calmTools, langchainTools, threadConfig } from "../support/graphs/agents.js";
import {
  canonicalIds,
  readThread,
  recordingModels,
  type ThreadReader,
} from "../support/comparisons/conversation-record.js";
import { memoryFactory, postgresFactory, saverPerTest } from "../support/savers/savers.js";
import { serviceAvailable } from "../support/servers/services.js";
import type { ScriptedReply } from "../support/graphs/strict-chat-model.js";

/** The user's three messages; each names the tool that answers it (see `calmTools`). */
const TURNS = [
  { text: "What is the weather in Paris?", city: "Paris", tool: "search" },
  { text: "Please look up Seoul.", city: "Seoul", tool: "lookup" },
  { text: "And the weather in Lyon?", city: "Lyon", tool: "search" },
] as const;

/** The turn a history belongs to: its latest human message is the turn's question (or a task made of it). */
function turnOf(messages: BaseMessage[]) {
  const question = [...messages].reverse().find((m) => m.type === "human")?.content;
  const turn = TURNS.find((t) => t.text === question);
  if (!turn) throw new Error(`No scripted turn for ${JSON.stringify(question)}`);
  return turn;
}

/**
 * An agent that answers with its own tools: it calls the tool the question needs, then answers with its result.
 * A question none of its tools answers goes to `handoff` (a swarm's `transfer_to_…` tool).
 */
const worker =
  (tools: readonly string[], handoff?: string) =>
  (messages: BaseMessage[]): ScriptedReply => {
    const turn = turnOf(messages);
    const last = messages.at(-1)!;
    if (last.type === "tool" && tools.includes(String(last.name))) return { content: `Here you are: ${last.content}` };
    if (!tools.includes(turn.tool)) {
      if (!handoff) throw new Error(`No tool for ${turn.text}`);
      return { content: "Handing over. ", toolCalls: [{ name: `transfer_to_${handoff}` }] };
    }
    return { content: "Let me check. ", toolCalls: [{ name: turn.tool, args: { city: turn.city } }] };
  };

const [searchTool, lookupTool] = langchainTools(calmTools);

/** What the test runs and reads: the object given to sanitizeGraph, and the graph whose thread it reads. */
interface App {
  invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>;
  graph?: ThreadReader;
}
type Models = ReturnType<typeof recordingModels>;

/** An app built on `checkpointer` with the models of one run, and the models it calls in each turn, in order. */
interface AppCase {
  build(models: Models, checkpointer: BaseCheckpointSaver): App;
  calls: string[][];
}

const APPS: Record<string, AppCase> = {
  // A supervisor that routes each question to one of two createAgent agents, which hand back to it.
  createSupervisor: {
    build: (models, checkpointer) => {
      const expert = (name: string, tool: typeof searchTool) =>
        createAgent({ name, model: models.model(name, worker([tool.name])), tools: [tool] }).graph;
      const supervisor = models.model("supervisor", (messages) => {
        const last = messages.at(-1)!;
        if (last.type === "tool" && String(last.name).startsWith("transfer_back_to_"))
          return { content: `Done: ${messages.at(-3)!.content}` };
        const agent = turnOf(messages).tool === "search" ? "weather_agent" : "lookup_agent";
        return { content: "", toolCalls: [{ name: `transfer_to_${agent}` }] };
      });
      return createSupervisor({
        agents: [expert("weather_agent", searchTool), expert("lookup_agent", lookupTool)],
        llm: supervisor,
      }).compile({ checkpointer }) as unknown as App;
    },
    calls: [
      ["supervisor", "weather_agent", "weather_agent", "supervisor"],
      ["supervisor", "lookup_agent", "lookup_agent", "supervisor"],
      ["supervisor", "weather_agent", "weather_agent", "supervisor"],
    ],
  },

  // Two createReactAgent agents that hand the conversation over to each other; the active one keeps it.
  createSwarm: {
    build: (models, checkpointer) => {
      const alice = createReactAgent({
        name: "alice",
        llm: models.model("alice", worker(["search"], "bob")),
        tools: [searchTool, createHandoffTool({ agentName: "bob" })],
      });
      const bob = createReactAgent({
        name: "bob",
        llm: models.model("bob", worker(["lookup"], "alice")),
        tools: [lookupTool, createHandoffTool({ agentName: "alice" })],
      });
      return createSwarm({ agents: [alice, bob], defaultActiveAgent: "alice" }).compile({
        checkpointer,
      }) as unknown as App;
    },
    calls: [
      ["alice", "alice"],
      ["alice", "bob", "bob"],
      ["bob", "alice", "alice"],
    ],
  },

  // A deep agent that sends every question to its one subagent through the `task` tool.
  createDeepAgent: {
    build: (models, checkpointer) =>
      createDeepAgent({
        model: models.model("deep_agent", (messages) => {
          const last = messages.at(-1)!;
          if (last.type === "tool" && last.name === "task") return { content: `The researcher says: ${last.content}` };
          return {
            content: "",
            toolCalls: [{ name: "task", args: { description: turnOf(messages).text, subagent_type: "researcher" } }],
          };
        }),
        subagents: [
          {
            name: "researcher",
            description: "Finds the weather and facts about a city.",
            systemPrompt: "You research cities.",
            model: models.model("researcher", worker(["search", "lookup"])),
            tools: [searchTool, lookupTool],
          },
        ],
        checkpointer,
      }) as unknown as App,
    calls: TURNS.map(() => ["deep_agent", "researcher", "researcher", "deep_agent"]),
  },

  // One createAgent agent with two tools.
  createAgent: {
    build: (models, checkpointer) =>
      createAgent({
        model: models.model("agent", worker(["search", "lookup"])),
        tools: [searchTool, lookupTool],
        checkpointer,
      }) as unknown as App,
    calls: TURNS.map(() => ["agent", "agent"]),
  },
};

/** How the app reads its saver, given how to build it on a checkpointer: through the sanitizer, three ways. */
type Mode = (build: (checkpointer: BaseCheckpointSaver) => App, saver: BaseCheckpointSaver) => App;
const MODES: Record<string, Mode> = {
  "new SanitizingCheckpointer(saver)": (build, saver) => build(new SanitizingCheckpointer(saver)),
  // As on a server: the graph has the raw saver, and sanitizeGraph wraps it.
  "sanitizeGraph(app) on the raw saver": (build, saver) => sanitizeGraph(build(saver)),
  "sanitizeGraph(app) on new SanitizingCheckpointer(saver)": (build, saver) =>
    sanitizeGraph(build(new SanitizingCheckpointer(saver))),
};

/**
 * Runs the three turns on a fresh thread of `app`, and records after each: the requests every model received
 * during the turn, in call order, and the thread's state and history as the app reads them. Ids are made
 * canonical over the whole run (see `canonicalIds`).
 */
async function converse(models: Models, app: App) {
  const graph = app.graph ?? (app as unknown as ThreadReader);
  const config = threadConfig("clean");
  const turns = [];
  for (const turn of TURNS) {
    const before = models.requests.length;
    await app.invoke({ messages: [new HumanMessage(turn.text)] }, config);
    turns.push({ requests: models.requests.slice(before), ...(await readThread(graph, config)) });
  }
  return canonicalIds(turns) as typeof turns;
}

const backends = [memoryFactory, ...((await serviceAvailable("postgres")) ? [postgresFactory] : [])];

for (const factory of backends) {
  describe(`clean conversations on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    describe.each(Object.entries(APPS))("%s", (_, app) => {
      it.each(Object.entries(MODES))(
        "%s: the same model requests, getState and getStateHistory as the raw saver, turn after turn",
        async (_, mode) => {
          const rawModels = recordingModels("openai");
          const raw = await converse(rawModels, app.build(rawModels, await open()));
          const models = recordingModels("openai");
          const sanitized = await converse(
            models,
            mode((c) => app.build(models, c), await open()),
          );

          // The conversation went as scripted: each turn called the models it was meant to, and was answered.
          expect(raw.map((turn) => turn.requests.map((r) => r.model))).toEqual(app.calls);
          const { messages } = (raw.at(-1)!.state as { values: { messages: { class: string }[] } }).values;
          expect(messages.filter((m) => m.class === "HumanMessage")).toHaveLength(TURNS.length);
          expect(messages.at(-1)!.class).toBe("AIMessage");

          // Soft: a failure shows every turn and every read that differs.
          for (const [i, turn] of raw.entries()) {
            const label = `turn ${i + 1}`;
            expect.soft(sanitized[i]!.requests, `${label}: the model requests`).toEqual(turn.requests);
            expect.soft(sanitized[i]!.state, `${label}: getState`).toEqual(turn.state);
            expect.soft(sanitized[i]!.history, `${label}: getStateHistory`).toEqual(turn.history);
          }
        },
      );
    });
  });
}
