// A drop-in changes nothing that already works: approving a static breakpoint (set at compile time or on the
// run, as Studio does), retrying a failed step with invoke(null), and reading a thread paused or still running
// give exactly what the raw saver gives, through sanitizeGraph on every backend. A new message is still a new
// turn: at a breakpoint and after a cancelled run it is repaired.
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { END, START, StateGraph, type Annotation, type BaseCheckpointSaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { sanitizeGraph, SanitizingCheckpointer } from "../../src/index.js";
import { buildAgent, threadConfig, type Agent } from "../support/graphs/agents.js";
import { rejectingProviders } from "../support/oracle/provider-rejections.js";
import { hangUntilAborted, messagesState, reactGraph, type ToolFn } from "../support/graphs/react-graph.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel, cancelled } from "../support/graphs/scenarios.js";
import type { StrictChatModel } from "../support/graphs/strict-chat-model.js";

/** How the graph reads its saver: as is, through sanitizeGraph, or through the plain wrapper told the breakpoints. */
type Mode = "raw" | "sanitizeGraph" | "plain";
type Breakpoints = { interruptBefore?: string[]; interruptAfter?: string[] };
type Entry = "invoke" | "stream" | "streamEvents";

/** A message as a run shows it, without the random ids LangGraph gives messages. */
const transcript = (messages: BaseMessage[]) =>
  messages.map((m) => [
    m.type,
    m.content,
    (m as { tool_call_id?: string }).tool_call_id ?? null,
    ((m as AIMessage).tool_calls ?? []).map((c) => [c.id, c.args]),
  ]);

/** A ReAct agent on `saver`, read the `mode` way, recording what its model saw and which tools ran. */
function agent(
  mode: Mode,
  saver: BaseCheckpointSaver,
  options: { compile?: Breakpoints; tools?: Record<string, ToolFn>; model?: StrictChatModel } = {},
) {
  const ran: string[] = [];
  const tools = options.tools ?? { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
  const counted: Record<string, ToolFn> = {};
  for (const [name, fn] of Object.entries(tools)) counted[name] = (args, config) => (ran.push(name), fn(args, config));
  const model = options.model ?? agentModel("bedrock");
  const { builder } = reactGraph({ model, tools: counted });
  const checkpointer = mode === "plain" ? new SanitizingCheckpointer(saver, options.compile) : saver;
  const compiled = builder.compile({ checkpointer, ...options.compile });
  return { graph: mode === "sanitizeGraph" ? sanitizeGraph(compiled) : compiled, model, ran };
}

type Run = ReturnType<typeof agent>;
const config = (thread_id: string, extra: object = {}) => ({
  configurable: { thread_id },
  durability: "sync" as const,
  ...extra,
});
const first = { messages: [new HumanMessage(FIRST_QUESTION)] };

/** Runs `input` through `entry` to its end, and returns the thread's messages. */
async function run({ graph }: Run, entry: Entry, input: unknown, options: object): Promise<BaseMessage[]> {
  if (entry === "invoke") await graph.invoke(input as never, options);
  if (entry === "stream") for await (const _ of await graph.stream(input as never, options));
  if (entry === "streamEvents")
    for await (const _ of graph.streamEvents(input as never, { ...options, version: "v2" }));
  return (await graph.getState(options as never)).values.messages as BaseMessage[];
}

/** What a client sees of a thread paused at a breakpoint: its state and history. */
async function pausedView({ graph }: Run, thread: string) {
  const state = await graph.getState(config(thread));
  const history = [];
  for await (const snapshot of graph.getStateHistory(config(thread))) {
    history.push([snapshot.next, transcript((snapshot.values.messages as BaseMessage[] | undefined) ?? [])]);
  }
  return { messages: transcript(state.values.messages as BaseMessage[]), next: state.next, history };
}

/** The model's every call, the tools that ran, and the thread's messages: what "the same run" means here. */
const outcome = (a: Run, messages: BaseMessage[]) => ({
  seen: a.model.seen.map(transcript),
  ran: a.ran,
  messages: transcript(messages),
});

/** A tool that throws on its first call and answers on the next: a failed step, then a retry. */
function failingOnce(result: string): ToolFn {
  let failed = false;
  return () => {
    if (failed) return result;
    failed = true;
    throw new Error("search backend timed out");
  };
}

for (const factory of saverFactories) {
  describe(`breakpoints and retries on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    /** One side of a comparison: an agent on its own fresh saver, and how any other graph is read there. */
    interface Side {
      make(options?: Parameters<typeof agent>[2]): Run;
      saver: BaseCheckpointSaver;
      protect<G>(graph: G): G;
    }

    /** Runs `scenario` on a raw saver and through `mode`, each on a fresh saver. */
    async function sideBySide<T>(mode: Mode, scenario: (side: Side) => Promise<T>) {
      const side = async (m: Mode): Promise<Side> => {
        const saver = await open();
        return {
          saver,
          make: (o) => agent(m, saver, o),
          protect: (g) => (m === "sanitizeGraph" ? sanitizeGraph(g) : g),
        };
      };
      return { raw: await scenario(await side("raw")), sanitized: await scenario(await side(mode)) };
    }

    const BREAKPOINTS: [string, Breakpoints][] = [
      ["before tools", { interruptBefore: ["tools"] }],
      ["after the model node", { interruptAfter: ["agent"] }],
    ];

    describe.each(BREAKPOINTS)("a static breakpoint %s", (_, breakpoints) => {
      it.each<[Mode, Entry]>([
        ["sanitizeGraph", "invoke"],
        ["sanitizeGraph", "stream"],
        ["sanitizeGraph", "streamEvents"],
        ["plain", "invoke"],
      ])("set at compile time, approved with null input (%s, %s): as raw", async (mode, entry) => {
        const { raw, sanitized } = await sideBySide(mode, async ({ make }) => {
          const a = make({ compile: breakpoints });
          await run(a, entry, first, config("t"));
          const paused = await pausedView(a, "t");
          return { paused, ...outcome(a, await run(a, entry, null, config("t"))) };
        });
        expect(sanitized).toEqual(raw);
        expect(sanitized.paused.next).toEqual(["tools"]);
        expect(sanitized.ran).toEqual(["search", "lookup"]);
        expect(sanitized.messages.filter(([type]) => type === "tool").map(([, content]) => content)).toEqual([
          "Paris: 15°C",
          LOOKUP_RESULT,
        ]);
        expect(sanitized.seen.at(-1)!.at(-1)).toEqual(["tool", LOOKUP_RESULT, "call_0_1", []]);
      });

      it.each<Entry>(["invoke", "stream", "streamEvents"])(
        "set on each run, as Studio does, and approved with null input (%s): as raw",
        async (entry) => {
          const { raw, sanitized } = await sideBySide("sanitizeGraph", async ({ make }) => {
            const a = make();
            await run(a, entry, first, config("t", breakpoints));
            const paused = await pausedView(a, "t");
            return { paused, ...outcome(a, await run(a, entry, null, config("t", breakpoints))) };
          });
          expect(sanitized).toEqual(raw);
          expect(sanitized.ran).toEqual(["search", "lookup"]);
        },
      );
    });

    it("a tool call edited with updateState at the breakpoint, then approved: as raw", async () => {
      const { raw, sanitized } = await sideBySide("sanitizeGraph", async ({ make }) => {
        const a = make({ compile: { interruptBefore: ["tools"] } });
        await run(a, "invoke", first, config("t"));
        const [, call] = (await a.graph.getState(config("t"))).values.messages as [HumanMessage, AIMessage];
        const edited = new AIMessage({
          id: call.id,
          content: call.content,
          tool_calls: call.tool_calls!.map((c) => (c.name === "search" ? { ...c, args: { city: "Lyon" } } : c)),
        });
        await a.graph.updateState(config("t"), { messages: [edited] });
        return outcome(a, await run(a, "invoke", null, config("t")));
      });
      expect(sanitized).toEqual(raw);
      expect(sanitized.messages[1]![3]).toEqual([
        ["call_0_0", { city: "Lyon" }],
        ["call_0_1", { city: "Seoul" }],
      ]);
    });

    it("a new message at the breakpoint instead of an approval: a new turn, repaired", async () => {
      const { raw, sanitized } = await sideBySide("sanitizeGraph", async ({ make }) => {
        const a = make({ compile: { interruptBefore: ["tools"] } });
        await run(a, "invoke", first, config("t"));
        try {
          return { messages: await run(a, "invoke", { messages: [new HumanMessage("Never mind.")] }, config("t")) };
        } catch (error) {
          return { error: String(error) };
        }
      });
      expect(raw).toEqual({ error: expect.stringMatching(/bedrock 400/) });
      expect(sanitized.messages!.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
      expect(rejectingProviders(sanitized.messages!)).toEqual({});
    });

    it("a failed tool retried with invoke(null): the tool runs again and the model sees its real result, as raw", async () => {
      const { raw, sanitized } = await sideBySide("sanitizeGraph", async ({ make }) => {
        const a = make({ tools: { search: failingOnce("Paris: 15°C"), lookup: () => LOOKUP_RESULT } });
        await expect(run(a, "invoke", first, config("t"))).rejects.toThrow("search backend timed out");
        return outcome(a, await run(a, "invoke", null, config("t")));
      });
      expect(sanitized).toEqual(raw);
      expect(rejectingProviders(sanitized.seen.at(-1) as never)).toEqual({});
      expect(sanitized.messages.filter(([type]) => type === "tool")).toHaveLength(2);
    });

    it("a failed model call (a 429) retried with invoke(null): the retried call sees the history as raw", async () => {
      const { raw, sanitized } = await sideBySide("sanitizeGraph", async ({ make }) => {
        let calls = 0;
        const model = agentModel("bedrock", () => {
          if (calls++ === 0) throw Object.assign(new Error("429 Too Many Requests"), { status: 429 });
        });
        const a = make({ model });
        await expect(run(a, "invoke", first, config("t"))).rejects.toThrow("429");
        return outcome(a, await run(a, "invoke", null, config("t")));
      });
      expect(sanitized).toEqual(raw);
      expect(sanitized.seen[1]).toEqual([["human", FIRST_QUESTION, null, []]]);
    });

    it("a new message after a failed step: a new turn, repaired", async () => {
      const { raw, sanitized } = await sideBySide("sanitizeGraph", async ({ make }) => {
        const a = make({ tools: { search: failingOnce("Paris: 15°C"), lookup: () => LOOKUP_RESULT } });
        await expect(run(a, "invoke", first, config("t"))).rejects.toThrow("search backend timed out");
        try {
          return { messages: await run(a, "invoke", { messages: [new HumanMessage("Anything else?")] }, config("t")) };
        } catch (error) {
          return { error: String(error) };
        }
      });
      expect(raw).toEqual({ error: expect.stringMatching(/bedrock 400/) });
      expect(rejectingProviders(sanitized.messages!)).toEqual({});
    });

    it("getState and getStateHistory while a tool runs: as raw", async () => {
      const { raw, sanitized } = await sideBySide("sanitizeGraph", async ({ make }) => {
        let inTool!: () => void;
        const started = new Promise<void>((resolve) => (inTool = resolve));
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const tools = { search: async () => (inTool(), await gate, "Paris: 15°C"), lookup: () => LOOKUP_RESULT };
        const a = make({ tools });
        const running = run(a, "invoke", first, config("t"));
        await started;
        const during = await pausedView(a, "t");
        release();
        return { during, ...outcome(a, await running) };
      });
      expect(sanitized).toEqual(raw);
      expect(sanitized.during.next).toEqual(["tools"]);
    });

    it("a run cancelled mid-tool with no breakpoint is still repaired for the next message", async () => {
      const saver = await open();
      const controller = new AbortController();
      const tools = {
        search: async (_: unknown, { signal }: { signal?: AbortSignal }) => (
          controller.abort(),
          hangUntilAborted(signal)
        ),
        lookup: () => LOOKUP_RESULT,
      };
      const a = agent("sanitizeGraph", saver, { tools: tools as never });
      await cancelled("the first turn", "during-tools", () =>
        run(a, "invoke", first, config("t", { signal: controller.signal })),
      );
      const messages = await run(a, "invoke", { messages: [new HumanMessage("Thanks, and tomorrow?")] }, config("t"));
      expect(messages.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
      expect(rejectingProviders(messages)).toEqual({});
    });

    it("a run cancelled inside a subgraph, retried with invoke(null): the subgraph resumes as raw", async () => {
      const { raw, sanitized } = await sideBySide("sanitizeGraph", async ({ saver, protect }) => {
        const controller = new AbortController();
        let searches = 0;
        const tools = {
          search: (_: unknown, { signal }: { signal?: AbortSignal }) =>
            searches++ === 0 ? (controller.abort(), hangUntilAborted(signal)) : "Paris: 15°C",
          lookup: () => LOOKUP_RESULT,
        };
        const model = agentModel("bedrock");
        const child = reactGraph({ model, tools: tools as never }).builder.compile();
        const parent = new StateGraph(messagesState() as ReturnType<typeof Annotation.Root>)
          .addNode("assistant", child)
          .addEdge(START, "assistant")
          .addEdge("assistant", END)
          .compile({ checkpointer: saver });
        const a: Run = { graph: protect(parent) as never, model, ran: [] };
        await cancelled("the subgraph turn", "during-tools", () =>
          run(a, "invoke", first, config("t", { signal: controller.signal })),
        );
        return outcome(a, await run(a, "invoke", null, config("t")));
      });
      expect(sanitized).toEqual(raw);
      expect(sanitized.messages.filter(([type]) => type === "tool").map(([, c]) => c)).toEqual([
        "Paris: 15°C",
        LOOKUP_RESULT,
      ]);
    });
  });
}

describe.each(saverFactories)("createAgent through sanitizeGraph on $name", (factory) => {
  const open = saverPerTest(factory);

  /** The same createAgent turn, then `next`, on a raw saver and through sanitizeGraph. */
  async function sideBySide(first: (agent: Agent) => Promise<unknown>, model: () => StrictChatModel) {
    const side = async (protect: boolean) => {
      const m = model();
      const ran: string[] = [];
      const tools = {
        search: (args: Record<string, unknown>) => (ran.push("search"), `${String(args.city)}: 15°C`),
        lookup: () => (ran.push("lookup"), LOOKUP_RESULT),
      };
      const built = buildAgent("createAgent", { model: m, tools, checkpointer: await open() });
      const agent = protect ? sanitizeGraph(built) : built;
      await first(agent);
      const { next } = await agent.graph.getState(threadConfig("t"));
      const { messages } = await agent.invoke(null, { ...threadConfig("t"), durability: "sync" });
      return { next, seen: m.seen.map(transcript), ran, messages: transcript(messages) };
    };
    return { raw: await side(false), sanitized: await side(true) };
  }

  it("a per-run breakpoint before tools, approved with null input: as raw", async () => {
    const { raw, sanitized } = await sideBySide(
      (agent) => agent.invoke(first, { ...threadConfig("t"), interruptBefore: ["tools"], durability: "sync" }),
      () => agentModel("bedrock"),
    );
    expect(sanitized).toEqual(raw);
    expect(sanitized.next).toEqual(["tools", "tools"]); // createAgent sends each call to its own task
    expect(sanitized.ran).toEqual(["search", "lookup"]);
  });

  it("a failed model call retried with null input: as raw", async () => {
    const { raw, sanitized } = await sideBySide(
      (agent) => expect(agent.invoke(first, { ...threadConfig("t"), durability: "sync" })).rejects.toThrow("429"),
      () => {
        let calls = 0;
        return agentModel("bedrock", () => {
          if (calls++ === 0) throw Object.assign(new Error("429 Too Many Requests"), { status: 429 });
        });
      },
    );
    expect(sanitized).toEqual(raw);
    expect(sanitized.seen[1]).toEqual([["human", FIRST_QUESTION, null, []]]);
  });
});
