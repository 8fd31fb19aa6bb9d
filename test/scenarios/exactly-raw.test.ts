// Where raw works, the model gets exactly raw's request: every input a client sends to re-run or continue a thread
// that raw sends successfully (null and { messages: [] } at a checkpoint or the head, a fork by checkpoint id with new
// input, updateState then a run, a frontend tool's result alone or with the next message, the whole transcript sent
// back) goes to the model as raw sends it through sanitizeGraph, the middleware and the plain checkpointer, on the
// default settings and on each provider's. Where raw is rejected, the repair for that provider answers it.
import { HumanMessage, ToolMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import { createAgent, createMiddleware, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SanitizingCheckpointer, sanitizeGraph, type ProviderChoice, type RepairEvent } from "../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../src/middleware/index.js";
import { wire, type WireMessage } from "../support/front-ends/thread-api.js";
import { StrictChatModel } from "../support/graphs/strict-chat-model.js";
import { PROVIDER_PROFILES, type ProviderProfile } from "../support/oracle/provider-rejections.js";

const ENTRY_POINTS = ["raw", "sanitizeGraph", "middleware", "checkpointer"] as const;
type EntryPoint = (typeof ENTRY_POINTS)[number];

/** A model that books a table through the page (`confirm`, a frontend tool), looks the weather up, and chats. */
function bookingModel(profile: ProviderProfile) {
  return new StrictChatModel({
    profile,
    rejectsPrefill: true,
    script: (messages) => {
      const last = messages.at(-1)!;
      if (last.type === "tool") return { content: last.name === "confirm" ? "Booked." : "It is 15°C in Paris." };
      if (last.content === "Book a table") return { content: "Shall I? ", toolCalls: [{ name: "confirm", args: {} }] };
      if (last.content === "Weather in Paris?") return { content: "", toolCalls: [{ name: "search", args: {} }] };
      return { content: "Happy to help with that." };
    },
  });
}

/** The page runs `confirm`: the run ends on its call, and the next input holds its result (CopilotKit, assistant-ui). */
const frontendTools = createMiddleware({
  name: "FrontendTools",
  afterModel: {
    canJumpTo: ["end"],
    hook: (state) => {
      const last = state.messages.at(-1) as AIMessage | undefined;
      return last?.tool_calls?.some((call) => call.name === "confirm") ? { jumpTo: "end" } : undefined;
    },
  },
});

const search = tool(() => "Paris: 15°C", { name: "search", description: "The weather.", schema: z.object({}) });

interface Setting {
  /** The sanitizer's `provider`; the middleware applies the model's own. */
  provider: ProviderChoice | undefined;
}

function agentThrough(
  entry: EntryPoint,
  model: StrictChatModel,
  saver: BaseCheckpointSaver | undefined,
  setting: Setting,
  events: RepairEvent[],
) {
  const options = { provider: setting.provider, onRepair: (event: RepairEvent) => events.push(event) };
  const checkpointer = entry === "checkpointer" && saver ? new SanitizingCheckpointer(saver, options) : saver;
  const middleware = entry === "middleware" ? [frontendTools, sanitizeMessagesMiddleware()] : [frontendTools];
  const agent = createAgent({ model, tools: [search], checkpointer, middleware });
  return entry === "sanitizeGraph" ? sanitizeGraph(agent, options) : agent;
}
type Agent = ReturnType<typeof agentThrough>;

const thread = (checkpointId?: string) => ({
  configurable: { thread_id: "t", ...(checkpointId === undefined ? {} : { checkpoint_id: checkpointId }) },
});

/** The checkpoints of the thread, newest first. */
async function history(agent: Agent) {
  const states = [];
  for await (const state of agent.graph.getStateHistory(thread())) states.push(state);
  return states;
}
const idOf = (state: { config: { configurable?: Record<string, unknown> } }) =>
  String(state.config.configurable?.checkpoint_id);
const last = (state: { values: Record<string, unknown> }) =>
  (state.values.messages as BaseMessage[] | undefined)?.at(-1);

/** A conversation raw holds well, then what a client sends: `setUp` runs first, `send` is judged. */
interface Case {
  setUp(agent: Agent): Promise<void>;
  send(agent: Agent): Promise<unknown>;
  /** Without a checkpointer: the run's input is all there is. */
  stateless?: true;
}

const chat = async (agent: Agent, ...texts: string[]) => {
  for (const text of texts) await agent.invoke({ messages: [new HumanMessage(text)] }, thread());
};
/** The page's result for the `confirm` call the run ended on. */
const confirmed = async (agent: Agent) => {
  const call = ((await agent.graph.getState(thread())).values.messages as AIMessage[]).at(-1)!.tool_calls![0]!;
  return new ToolMessage({ content: '{"ok":true}', tool_call_id: call.id!, name: "confirm" });
};

const CASES: Record<string, Case> = {
  "{ messages: [] } at the checkpoint that ends on the user's message (assistant-ui's Reload, its docs' callbacks)": {
    setUp: (agent) => chat(agent, "Hello!", "Weather in Paris?"),
    send: async (agent) => {
      const at = (await history(agent)).find((s) => last(s)?.type === "human" && s.next.length > 0)!;
      return agent.invoke({ messages: [] }, thread(idOf(at)));
    },
  },
  "null at that checkpoint (assistant-ui's Reload, Regenerate everywhere)": {
    setUp: (agent) => chat(agent, "Hello!", "Weather in Paris?"),
    send: async (agent) => {
      const at = (await history(agent)).find((s) => last(s)?.type === "human" && s.next.length > 0)!;
      return agent.invoke(null, thread(idOf(at)));
    },
  },
  "{ messages: [] } on the thread's head": {
    setUp: (agent) => chat(agent, "Hello!"),
    send: (agent) => agent.invoke({ messages: [] }, thread()),
  },
  "a new message forked from the input checkpoint of an earlier turn (Edit)": {
    setUp: (agent) => chat(agent, "Hello!", "Weather in Paris?"),
    send: async (agent) => {
      const states = await history(agent);
      const firstSeen = states.filter((s) => last(s)?.content === "Weather in Paris?").at(-1)!;
      const parent = String(firstSeen.parentConfig?.configurable?.checkpoint_id);
      return agent.invoke({ messages: [{ type: "human", content: "Weather in Lyon?" }] }, thread(parent));
    },
  },
  "updateState at a checkpoint, then a run from the fork (the AG-UI adapter's regenerate)": {
    setUp: (agent) => chat(agent, "Hello!", "Weather in Paris?"),
    send: async (agent) => {
      const states = await history(agent);
      const user = states.filter((s) => last(s)?.content === "Weather in Paris?").at(-1)!;
      const before = states.find((s) => idOf(s) === user.parentConfig?.configurable?.checkpoint_id)!;
      const fork = await agent.graph.updateState(thread(idOf(before)), { messages: [] }, before.next[0] ?? "__start__");
      const question = (user.values.messages as BaseMessage[]).at(-1)!;
      return agent.invoke({ messages: [question] }, thread(String(fork.configurable?.checkpoint_id)));
    },
  },
  "a frontend tool's result alone": {
    setUp: (agent) => chat(agent, "Book a table"),
    send: async (agent) => agent.invoke({ messages: [await confirmed(agent)] }, thread()),
  },
  "a frontend tool's result with the next message": {
    setUp: (agent) => chat(agent, "Book a table"),
    send: async (agent) => agent.invoke({ messages: [await confirmed(agent), new HumanMessage("Thanks!")] }, thread()),
  },
  "the state read sent back with the next message (CopilotKit's AG-UI adapter)": {
    setUp: (agent) => chat(agent, "Hello!", "Weather in Paris?"),
    send: async (agent) => {
      const state = (await agent.graph.getState(thread())).values.messages as BaseMessage[];
      const messages: unknown[] = [...state.map(wire), { id: "h-next", type: "human", content: "Thanks!" }];
      return agent.invoke({ messages } as never, thread());
    },
  },
  "a whole transcript into a graph without a checkpointer (the AI SDK's transport)": {
    stateless: true,
    setUp: async () => {},
    send: (agent) =>
      agent.invoke({
        messages: [
          { role: "human", content: "Weather in Paris?" },
          { role: "ai", content: "", tool_calls: [{ id: "call_9", name: "search", args: {} }] },
          { role: "tool", content: "Paris: 15°C", tool_call_id: "call_9" },
          { role: "ai", content: "It is 15°C in Paris." },
          { role: "human", content: "Thanks!" },
        ],
      }),
  },
};

/** A request as the provider gets it: roles, texts, calls and their results; ids of the model's own replies aside. */
const sent = (request: BaseMessage[]) =>
  request.map((m): Partial<WireMessage> => {
    const { type, content, tool_calls, tool_call_id } = wire(m);
    return { type, content, tool_call_id, tool_calls: tool_calls?.map(({ id, name }) => ({ id, name, args: {} })) };
  });

/** The model's requests for what the client sent, and whether they were all answered. */
async function requestsOf(
  entry: EntryPoint,
  { setUp, send, stateless }: Case,
  profile: ProviderProfile,
  setting: Setting,
) {
  const model = bookingModel(profile);
  const events: RepairEvent[] = [];
  const agent = agentThrough(entry, model, stateless ? undefined : new MemorySaver(), setting, events);
  await setUp(agent);
  const from = model.seen.length;
  const reported = events.length;
  const failed = await send(agent).then(
    () => undefined,
    (error: unknown) => error,
  );
  return {
    requests: model.seen.slice(from).map(sent),
    answered: failed === undefined && model.rejections.length === 0,
    reported: events.slice(reported),
  };
}

describe.each(Object.entries(CASES))("%s", (_name, scenario) => {
  it.each(PROVIDER_PROFILES)("on %s: raw's request where raw works, answered where it does not", async (profile) => {
    for (const setting of [{ provider: undefined }, { provider: profile }]) {
      const raw = await requestsOf("raw", scenario, profile, setting);
      for (const entry of ENTRY_POINTS.slice(1)) {
        // The plain checkpointer sees no input, and a graph without one has nothing to read.
        if (entry === "checkpointer" && scenario.stateless) continue;
        const through = await requestsOf(entry, scenario, profile, setting);
        const label = `${entry}, provider ${String(setting.provider)}`;
        if (raw.answered) {
          expect(through.requests, label).toEqual(raw.requests);
          // Nothing repaired, nothing reported (a provider's rules may still mark what the fake models do not judge:
          // Gemini 3's thought signatures on the current turn's calls, pattern T).
          if (setting.provider === undefined) expect(through.reported, label).toEqual([]);
        }
        // Where raw is rejected, the entry points that see the run's input answer it for the provider they repair for.
        else if (entry === "middleware" || (entry === "sanitizeGraph" && setting.provider === profile))
          expect(through.answered, label).toBe(true);
      }
    }
  });
});
