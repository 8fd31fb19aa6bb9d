// A cancelled run whose stream never closes: a task that ignores the abort (deepagents' `task` tool cancelled as
// it starts) keeps LangGraph's stream open after the caller's `invoke` has rejected, raw alike. The caller has its
// answer: the run must not hold the thread's reads in flight for the life of the process.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, sanitizeGraph, SanitizingCheckpointer } from "../../../src/index.js";
import { reactGraph, type ToolFn } from "../../support/graphs/react-graph.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel } from "../../support/graphs/scenarios.js";
import { settled } from "../../support/savers/settled.js";

type Durability = "sync" | "async" | "exit";

/**
 * A first turn through `sanitizeGraph`, cancelled once `search` works (made by `searchFor`, given a callback to
 * call when it starts). Returns the ids of what `getState` shows through that graph, and through the checkpointer
 * alone, which takes any thread with pending tasks for a broken one.
 */
async function cancelledInTool(searchFor: (started: () => void) => ToolFn, durability: Durability) {
  const saver = new MemorySaver();
  let started!: () => void;
  const inTool = new Promise<void>((resolve) => (started = resolve));
  const tools = { search: searchFor(started), lookup: () => LOOKUP_RESULT };
  const build = () => reactGraph({ model: agentModel("bedrock"), tools }).compile(new SanitizingCheckpointer(saver));
  const graph = sanitizeGraph(build());
  const config = { configurable: { thread_id: "t" } };
  const controller = new AbortController();
  const run = graph.invoke(
    { messages: [new HumanMessage(FIRST_QUESTION)] },
    { ...config, signal: controller.signal, durability },
  );
  await inTool;
  controller.abort();
  await expect(run).rejects.toThrow();
  await settled(saver, "t");
  const messages = async (read: { getState(c: typeof config): Promise<{ values: Record<string, unknown> }> }) =>
    ((await read.getState(config)).values.messages as BaseMessage[]).map((m) => ({
      id: m.id,
      synthetic: isSyntheticMessage(m),
    }));
  return { sanitized: await messages(graph), plain: await messages(build()) };
}

describe("sanitizeGraph: a cancelled run whose stream never closes", () => {
  it("reads the thread as one whose run failed once the caller's invoke has rejected", async () => {
    // Never settles, and ignores the abort.
    const { sanitized, plain } = await cancelledInTool((started) => () => (started(), new Promise(() => {})), "sync");
    // What a read that knows the run broke off shows: the call answered with a placeholder, the turn closed.
    expect(plain.some((m) => m.synthetic)).toBe(true);
    expect(sanitized).toEqual(plain);
  });

  it.each(["sync", "async", "exit"] as const)(
    "a run cancelled mid-tool with durability %s reads as the checkpointer alone reads it, once its stream closes",
    async (durability) => {
      // Honours the abort: the stream closes, and with "exit" LangGraph stores the run's checkpoint only then.
      const honouring = (started: () => void) => (_: unknown, config: { signal?: AbortSignal }) =>
        new Promise<string>((_resolve, reject) => {
          started();
          config.signal?.addEventListener("abort", () => reject(new Error("aborted")));
        });
      const { sanitized, plain } = await cancelledInTool(honouring, durability);
      expect(plain.some((m) => m.synthetic)).toBe(true);
      expect(sanitized).toEqual(plain);
    },
  );
});
