// A cancelled run whose stream never closes: a task that ignores the abort (deepagents' `task` tool cancelled as
// it starts) keeps LangGraph's stream open after the caller's `invoke` has rejected, raw alike. The caller has its
// answer: the run must not hold the thread's reads in flight for the life of the process.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, sanitizeGraph, SanitizingCheckpointer } from "../../src/index.js";
import { reactGraph } from "../support/react-graph.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel } from "../support/scenarios.js";
import { settled } from "../support/settled.js";

describe("sanitizeGraph: a cancelled run whose stream never closes", () => {
  it("reads the thread as one whose run failed once the caller's invoke has rejected", async () => {
    const saver = new MemorySaver();
    let started!: () => void;
    const inTool = new Promise<void>((resolve) => (started = resolve));
    // Never settles, and ignores the abort.
    const search = () => (started(), new Promise<string>(() => {}));
    const tools = { search, lookup: () => LOOKUP_RESULT };
    const graph = sanitizeGraph(
      reactGraph({ model: agentModel("bedrock"), tools }).compile(new SanitizingCheckpointer(saver)),
    );
    const config = { configurable: { thread_id: "t" } };
    const controller = new AbortController();
    const run = graph.invoke(
      { messages: [new HumanMessage(FIRST_QUESTION)] },
      { ...config, signal: controller.signal, durability: "sync" },
    );
    await inTool;
    controller.abort();
    await expect(run).rejects.toThrow();

    // What a read that knows the run broke off shows: the call answered with a placeholder, the turn closed.
    const plain = reactGraph({ model: agentModel("bedrock"), tools }).compile(new SanitizingCheckpointer(saver));
    const expected = (await plain.getState(config)).values.messages as BaseMessage[];
    expect(expected.some(isSyntheticMessage)).toBe(true);
    const messages = (await graph.getState(config)).values.messages as BaseMessage[];
    expect(messages.map((m) => m.id)).toEqual(expected.map((m) => m.id));
  });

  it.each(["sync", "async", "exit"] as const)(
    "a run cancelled mid-tool with durability %s reads as the checkpointer alone reads it, once its stream closes",
    async (durability) => {
      const saver = new MemorySaver();
      let started!: () => void;
      const inTool = new Promise<void>((resolve) => (started = resolve));
      // Honours the abort: the stream closes, and with "exit" LangGraph stores the run's checkpoint only then.
      const search = (_: unknown, config: { signal?: AbortSignal }) =>
        new Promise<string>((_resolve, reject) => {
          started();
          config.signal?.addEventListener("abort", () => reject(new Error("aborted")));
        });
      const tools = { search, lookup: () => LOOKUP_RESULT };
      const graph = sanitizeGraph(
        reactGraph({ model: agentModel("bedrock"), tools }).compile(new SanitizingCheckpointer(saver)),
      );
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
      const plain = reactGraph({ model: agentModel("bedrock"), tools }).compile(new SanitizingCheckpointer(saver));
      const expected = (await plain.getState(config)).values.messages as BaseMessage[];
      const messages = (await graph.getState(config)).values.messages as BaseMessage[];
      expect(messages.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    },
  );
});
