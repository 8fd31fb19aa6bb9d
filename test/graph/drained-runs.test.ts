// A graceful drain: RunControl (LangGraph 1.7; the Agent Server drains its runs on shutdown) stops a run at the next
// step boundary and throws GraphDrained, leaving the tasks in `next` to be resumed. The stored checkpoint is the one
// a run cut off between nodes leaves. Each way a user resumes it, raw and through the sanitizer.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { GraphDrained, MemorySaver, RunControl } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, sanitizeGraph, SanitizingCheckpointer } from "../../src/index.js";
import { comparable } from "../support/compare.js";
import { reactGraph } from "../support/react-graph.js";
import { agentModel, FIRST_QUESTION, LOOKUP_RESULT } from "../support/scenarios.js";

type Mode = "raw" | "checkpointer" | "sanitizeGraph";
const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };

/** A thread whose first turn was drained after the model asked for tools, and the graph that reads it in `mode`. */
async function drained(mode: Mode) {
  const saver = new MemorySaver();
  const control = new RunControl();
  // The drain comes while the model answers: the run stops once that step is stored, before the tools.
  const model = agentModel("bedrock", undefined, (call) => call === 0 && control.requestDrain("sigterm"));
  const compiled = reactGraph({ model, tools }).compile(mode === "raw" ? saver : new SanitizingCheckpointer(saver));
  const graph = mode === "sanitizeGraph" ? sanitizeGraph(compiled) : compiled;
  const config: RunnableConfig = { configurable: { thread_id: "t" } };
  const first = graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, { ...config, control } as never);
  await expect(first).rejects.toBeInstanceOf(GraphDrained);
  return { graph, config };
}

const messagesOf = (state: unknown) => (state as { messages: BaseMessage[] }).messages;
const RESUMES = {
  getState: async ({ graph, config }: Awaited<ReturnType<typeof drained>>) => {
    const state = await graph.getState(config);
    return { values: comparable(state.values), next: state.next };
  },
  "invoke(null)": async ({ graph, config }: Awaited<ReturnType<typeof drained>>) =>
    comparable(messagesOf(await graph.invoke(null, config))),
  "invoke(null) with sanitizer: preserve": async ({ graph, config }: Awaited<ReturnType<typeof drained>>) =>
    comparable(
      messagesOf(await graph.invoke(null, { configurable: { ...config.configurable, sanitizer: "preserve" } })),
    ),
};

describe("a drained run (RunControl, GraphDrained)", () => {
  it.each(Object.keys(RESUMES))("%s: as raw through sanitizeGraph", async (way) => {
    const resume = RESUMES[way as keyof typeof RESUMES];
    const raw = await resume(await drained("raw"));
    expect(await resume(await drained("sanitizeGraph"))).toEqual(raw);
  });

  it("invoke(null) with sanitizer: preserve: as raw through the checkpointer alone", async () => {
    const resume = RESUMES["invoke(null) with sanitizer: preserve"];
    expect(await resume(await drained("checkpointer"))).toEqual(await resume(await drained("raw")));
  });

  it("invoke(null) through the checkpointer alone is taken for a new turn: the calls answered by placeholders", async () => {
    // The checkpointer cannot see the null input; sanitizeGraph or sanitizer: "preserve" is the remedy (docs).
    const { graph, config } = await drained("checkpointer");
    const messages = messagesOf(await graph.invoke(null, config));
    expect(messages.some(isSyntheticMessage)).toBe(true);
  });

  it("a new message: rejected by the strict provider raw, answered through the checkpointer and sanitizeGraph", async () => {
    const next = { messages: [new HumanMessage("And tomorrow?")] };
    const raw = await drained("raw");
    await expect(raw.graph.invoke(next, raw.config)).rejects.toThrow(/bedrock 400/);
    for (const mode of ["checkpointer", "sanitizeGraph"] as const) {
      const { graph, config } = await drained(mode);
      const messages = messagesOf(await graph.invoke(next, config));
      expect(messages.at(-1)!.content).toBe("Happy to help with that.");
    }
  });
});
