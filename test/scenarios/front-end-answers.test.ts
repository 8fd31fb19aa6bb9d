// The chat front ends answer a stopped call themselves in the next input (examples/chat-ui/page/front-ends.ts). A
// createAgent turn is stopped as each client stops it, the client's next input is built from what it streamed, and
// the next model request is judged by every provider's rules, on each entry point and every backend: the call is
// answered once, and a frontend tool's result reaches the model as on the raw saver.
import { type AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import {
  END,
  MemorySaver,
  START,
  StateGraph,
  MessagesAnnotation,
  type BaseCheckpointSaver,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, sanitizeGraph } from "../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../src/middleware/index.js";
import { buildAgent, calmTools, threadConfig, type Agent } from "../support/graphs/agents.js";
import {
  FRONT_ENDS,
  frontendToolResult,
  nextInput,
  type FrontEnd,
  type ViewMessage,
} from "../../examples/chat-ui/page/front-ends.js";
import { PROVIDER_PROFILES, type ProviderProfile } from "../support/oracle/provider-rejections.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import {
  FIRST_QUESTION,
  LOOKUP_RESULT,
  agentModel,
  stoppingAgent,
  stoppingParts,
  type StopPoint,
} from "../support/graphs/scenarios.js";
import { StrictChatModel } from "../support/graphs/strict-chat-model.js";
import { MESSAGES_FIELDS, reactGraph } from "../support/graphs/react-graph.js";

/** `checkpointer+middleware` is createAgent's recommended setup: the wrapped saver and the middleware together. */
const ENTRY_POINTS = ["raw", "sanitizeGraph", "middleware", "checkpointer", "checkpointer+middleware"] as const;
type EntryPoint = (typeof ENTRY_POINTS)[number];
const STOPS = ["during-tools", "after-one-of-two-parallel-tools"] as const satisfies readonly StopPoint[];
type Stop = (typeof STOPS)[number];
/** Every profile, through the entry points that see the client's answers. */
const REPAIRED = {
  sanitizeGraph: [...PROVIDER_PROFILES],
  middleware: [...PROVIDER_PROFILES],
  "checkpointer+middleware": [...PROVIDER_PROFILES],
};

/** createAgent on `saver` through `entry`. */
function agentThrough(entry: EntryPoint, saver: BaseCheckpointSaver, parts: Parameters<typeof buildAgent>[1]): Agent {
  const checkpointer = entry.startsWith("checkpointer") ? new SanitizingCheckpointer(saver) : saver;
  const middleware = entry.endsWith("middleware") ? [sanitizeMessagesMiddleware()] : [];
  const agent = buildAgent("createAgent", { ...parts, checkpointer, middleware });
  return entry === "sanitizeGraph" ? sanitizeGraph(agent) : agent;
}

/** A message as the server streams it, as the client keeps it. */
const wire = (m: BaseMessage): ViewMessage => ({
  type: m.type,
  id: m.id,
  content: m.content,
  tool_calls: (m as AIMessage).tool_calls,
  tool_call_id: (m as { tool_call_id?: string }).tool_call_id,
});

/**
 * What a client holds when Stop is pressed: agent-chat-ui the last `values` event, assistant-ui every message the
 * `updates` events brought (a task's update arrives when that task finishes, before its step does).
 */
function viewOf(client: FrontEnd, chunks: [string, unknown][]): ViewMessage[] {
  const values = chunks.filter(([mode]) => mode === "values").at(-1)?.[1] as { messages: BaseMessage[] };
  const view = values.messages.map(wire);
  if (client === "agent-chat-ui") return view;
  for (const [mode, update] of chunks) {
    if (mode !== "updates") continue;
    for (const node of Object.values(update as Record<string, { messages?: BaseMessage[] }>)) {
      for (const m of node?.messages ?? []) if (!view.some((v) => v.id === m.id)) view.push(wire(m));
    }
  }
  return view;
}

/** Runs the first turn, streaming as a chat page does, and stops it at `stop`; returns the chunks streamed. */
async function stoppedTurn(entry: EntryPoint, saver: BaseCheckpointSaver, stop: StopPoint, thread: string) {
  const controller = new AbortController();
  const { model, tools } = stoppingParts(stop, () => controller.abort());
  const agent = agentThrough(entry, saver, { model, tools, checkpointer: saver });
  const config = {
    ...threadConfig(thread),
    signal: controller.signal,
    durability: "sync",
    streamMode: ["values", "updates"],
  };
  const chunks: [string, unknown][] = [];
  await expect(
    (async () => {
      for await (const chunk of await agent.stream({ messages: [new HumanMessage(FIRST_QUESTION)] }, config))
        chunks.push(chunk as [string, unknown]);
    })(),
  ).rejects.toMatchObject({ name: "AbortError" });
  return chunks;
}

/** The next turn with `input`, answered by a strict `profile` model: its first request, and whether it was rejected. */
async function nextTurn(
  entry: EntryPoint,
  saver: BaseCheckpointSaver,
  thread: string,
  input: unknown,
  profile: ProviderProfile,
) {
  const model = agentModel(profile);
  const agent = agentThrough(entry, saver, { model, checkpointer: saver });
  const state = await agent.invoke(input, threadConfig(thread)).catch(() => undefined);
  return { answered: model.rejections.length === 0 && state !== undefined, request: model.seen[0]!, state };
}

/** The profiles on which `entry` answers the next turn after `client` stopped the first at `stop`, on a new saver each. */
async function answeredOn(
  client: FrontEnd,
  stop: StopPoint,
  entry: EntryPoint,
  open: () => Promise<BaseCheckpointSaver>,
) {
  const answered: ProviderProfile[] = [];
  const requests: BaseMessage[][] = [];
  for (const profile of PROVIDER_PROFILES) {
    const saver = await open();
    const chunks = await stoppedTurn(entry, saver, stop, "t");
    const input = nextInput(client, viewOf(client, chunks), FOLLOW_UP);
    const turn = await nextTurn(entry, saver, "t", input, profile);
    if (turn.answered) answered.push(profile);
    requests.push(turn.request);
  }
  return { answered, requests };
}

const FOLLOW_UP = "Thanks, and tomorrow?";
/** The model's first request on each profile, one line each, for a failure's message. */
const printed = (requests: BaseMessage[][]) =>
  requests
    .map(
      (r, i) =>
        `${PROVIDER_PROFILES[i]}: ${r.map((m) => `${m.type}(${JSON.stringify(m.content).slice(0, 40)})`).join(" ")}`,
    )
    .join("\n");
const ALL = [...PROVIDER_PROFILES];
/** A user turn right after a tool result: Bedrock and Mistral reject it. */
const NOT_AFTER_RESULTS = ALL.filter((p) => p !== "bedrock" && p !== "mistral");

/** Where each entry point answers the next turn, by client and stop; raw's is what the client's stubs leave. */
const EXPECTED: Record<FrontEnd, Record<Stop, Record<EntryPoint, ProviderProfile[]>>> = {
  "agent-chat-ui": {
    // It stubs every call of the stopped reply: the history is whole, with a user turn right after the results.
    "during-tools": { raw: NOT_AFTER_RESULTS, ...REPAIRED, checkpointer: [] },
    "after-one-of-two-parallel-tools": { raw: NOT_AFTER_RESULTS, ...REPAIRED, checkpointer: [] },
  },
  "assistant-ui": {
    "during-tools": { raw: NOT_AFTER_RESULTS, ...REPAIRED, checkpointer: [] },
    // The finished call's update reached it, so it stubs the other call only: raw leaves that one unanswered.
    "after-one-of-two-parallel-tools": { raw: [], ...REPAIRED, checkpointer: [] },
  },
};

describe("a stopped call the client answers itself, on each provider profile", () => {
  const open = () => Promise.resolve(new MemorySaver());

  describe.each(FRONT_ENDS)("%s", (client) => {
    describe.each(STOPS)("stopped %s", (stop) => {
      it.each(ENTRY_POINTS)("through %s", async (entry) => {
        const { answered, requests } = await answeredOn(client, stop, entry, open);
        expect(answered, printed(requests)).toEqual(EXPECTED[client][stop][entry]);
        if (entry === "raw" || entry === "checkpointer") return;
        // Each call answered once, the finished one by its own result.
        for (const request of requests) {
          const results = request.filter((m) => m.type === "tool");
          expect(results.map((m) => (m as { tool_call_id?: string }).tool_call_id)).toEqual(["call_0_0", "call_0_1"]);
          // The middleware alone sees the request, not the pending writes the finished call left.
          if (stop === "after-one-of-two-parallel-tools" && entry !== "middleware")
            expect(results[1]!.content).toBe(LOOKUP_RESULT);
        }
      });
    });
  });
});

it("through the checkpointer alone, the turn after the double answer is answered", async () => {
  const saver = new MemorySaver();
  const chunks = await stoppedTurn("checkpointer", saver, "during-tools", "t");
  const input = nextInput("agent-chat-ui", viewOf("agent-chat-ui", chunks), FOLLOW_UP);
  expect((await nextTurn("checkpointer", saver, "t", input, "bedrock")).answered).toBe(false);
  const after = await nextTurn("checkpointer", saver, "t", { messages: [new HumanMessage("Still there?")] }, "bedrock");
  expect(after.answered).toBe(true);
  // The client's answers took the placeholders' place.
  const results = after.request.filter((m) => m.type === "tool").map((m) => m.content);
  expect(results).toEqual(["Successfully handled tool call.", "Successfully handled tool call."]);
});

describe("a run that went on after Stop (agent-chat-ui: onDisconnect continue)", () => {
  // The page stops reading once the tools start; the run finishes on the server, and the page stubs calls the run
  // has answered since. Raw, every provider rejects the second answers; the real results stand through the sanitizer.
  it.each(ENTRY_POINTS)("through %s", async (entry) => {
    const saver = new MemorySaver();
    const first = agentThrough(entry, saver, { model: agentModel("openai"), tools: calmTools, checkpointer: saver });
    const chunks: [string, unknown][] = [];
    const stream = await first.stream(
      { messages: [new HumanMessage(FIRST_QUESTION)] },
      {
        ...threadConfig("t"),
        streamMode: ["values"],
      },
    );
    for await (const chunk of stream) chunks.push(chunk as [string, unknown]);
    const stoppedAt = chunks.findIndex(([, v]) => (v as { messages: BaseMessage[] }).messages.at(-1)?.type === "ai");
    const input = nextInput("agent-chat-ui", viewOf("agent-chat-ui", chunks.slice(0, stoppedAt + 1)), FOLLOW_UP);
    const { answered, request } = await nextTurn(entry, saver, "t", input, "anthropic");
    // The plain checkpointer does not see the input: the second answers stand (docs/tail-policy.md).
    expect(answered).toBe(entry !== "raw" && entry !== "checkpointer");
    if (!answered) return;
    expect(request.filter((m) => m.type === "tool").map((m) => m.content)).toEqual(["Paris: 15°C", LOOKUP_RESULT]);
  });
});

/** A graph whose `confirm` tool the client runs: the run ends on the call, and the client sends the result. */
function frontendToolGraph(model: StrictChatModel) {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "agent")
    .addEdge("agent", END);
}
const confirmingModel = (profile: ProviderProfile) =>
  new StrictChatModel({
    profile,
    script: (messages) =>
      messages.at(-1)!.type === "tool"
        ? { content: "Booked." }
        : { content: "Shall I book it? ", toolCalls: [{ name: "confirm", args: { what: "table" } }] },
  });

describe("a frontend tool's result reaches the model as on the raw saver", () => {
  const entries = ["raw", "sanitizeGraph", "checkpointer"] as const;
  it.each(PROVIDER_PROFILES)("on %s", async (profile) => {
    const requests = [];
    for (const entry of entries) {
      const saver = new MemorySaver();
      const model = confirmingModel(profile);
      const compiled = frontendToolGraph(model).compile({
        checkpointer: entry === "checkpointer" ? new SanitizingCheckpointer(saver) : saver,
      });
      const graph = entry === "sanitizeGraph" ? sanitizeGraph(compiled) : compiled;
      await graph.invoke({ messages: [new HumanMessage("Book a table")] }, threadConfig("t"));
      const state = await graph.invoke(frontendToolResult("call_0_0", "confirm", { ok: true }), threadConfig("t"));
      expect(state.messages.at(-1)).toMatchObject({ content: "Booked." });
      requests.push(model.seen[1]!.map((m) => [m.type, m.content, (m as { tool_call_id?: string }).tool_call_id]));
    }
    expect(requests[1]).toEqual(requests[0]);
    expect(requests[2]).toEqual(requests[0]);
  });
});

for (const factory of saverFactories) {
  describe(`on ${factory.name}`, () => {
    const open = saverPerTest(factory);
    it.each(FRONT_ENDS)("%s's answers to a stopped call are taken once through sanitizeGraph", async (client) => {
      const stop = "after-one-of-two-parallel-tools";
      for (const entry of ["raw", "sanitizeGraph"] as const) {
        const { answered } = await answeredOn(client, stop, entry, open);
        expect(answered).toEqual(EXPECTED[client][stop][entry]);
      }
    });
  });
}

describe("on a MessagesDeltaValue thread, the client's answers are taken once, as on a MessagesValue thread", () => {
  it.each(MESSAGES_FIELDS)("%s", async (field) => {
    for (const client of FRONT_ENDS) {
      const saver = new MemorySaver();
      const controller = new AbortController();
      const { builder } = stoppingAgent("after-one-of-two-parallel-tools", () => controller.abort(), "openai", field);
      const first = sanitizeGraph(builder.compile({ checkpointer: saver }));
      const chunks: [string, unknown][] = [];
      const config = {
        ...threadConfig("t"),
        signal: controller.signal,
        durability: "sync",
        streamMode: ["values", "updates"],
      };
      await expect(
        (async () => {
          for await (const chunk of await first.stream(
            { messages: [new HumanMessage(FIRST_QUESTION)] },
            config as never,
          ))
            chunks.push(chunk as unknown as [string, unknown]);
        })(),
      ).rejects.toMatchObject({ name: "AbortError" });
      const model = agentModel("bedrock");
      const next = sanitizeGraph(
        reactGraph({ model, tools: calmTools, field }).builder.compile({ checkpointer: saver }),
      );
      await next.invoke(nextInput(client, viewOf(client, chunks), FOLLOW_UP), threadConfig("t"));
      expect(model.rejections, `${field} ${client}`).toEqual([]);
      const results = model.seen[0]!.filter((m) => m.type === "tool");
      expect(results.map((m) => (m as { tool_call_id?: string }).tool_call_id)).toEqual(["call_0_0", "call_0_1"]);
      expect(results[1]!.content).toBe(LOOKUP_RESULT);
      // A later read of the thread rebuilds the same history.
      const after = (await next.getState(threadConfig("t"))).values.messages as BaseMessage[];
      expect(after.filter((m) => m.type === "tool").map((m) => m.content)).toEqual(results.map((m) => m.content));
    }
  });
});
