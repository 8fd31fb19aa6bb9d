// A graceful drain: RunControl (LangGraph 1.7, for a server that stops its runs on shutdown) stops a run at the
// next step boundary and throws GraphDrained, leaving the tasks in `next` to be resumed. The stored checkpoint is the
// one a run cut off between nodes leaves. Each way a user reads or resumes it, raw, through the checkpointer alone
// and through sanitizeGraph: the table of docs/deployment.md. (The soak drains runs too, in process and on SIGTERM in
// worker processes, each resumed in another.)
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { GraphDrained, MemorySaver, RunControl } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, sanitizeGraph, SanitizingCheckpointer } from "../../../src/index.js";
import { comparable } from "../../support/comparisons/compare.js";
import { reactGraph } from "../../support/graphs/react-graph.js";
import { agentModel, FIRST_QUESTION, LOOKUP_RESULT } from "../../support/graphs/scenarios.js";

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
type Drained = Awaited<ReturnType<typeof drained>>;
const preserve = ({ config }: Drained) => ({ configurable: { ...config.configurable, tailPolicy: "preserve" } });
/** Each way a user reads or resumes a drained thread, and the messages it shows. */
const WAYS: Record<string, (drained: Drained) => Promise<BaseMessage[]>> = {
  getState: async ({ graph, config }) => messagesOf((await graph.getState(config)).values),
  "invoke(null)": async ({ graph, config }) => messagesOf(await graph.invoke(null, config)),
  'invoke(null), tailPolicy: "preserve"': async (d) => messagesOf(await d.graph.invoke(null, preserve(d))),
  "a new message": async ({ graph, config }) =>
    messagesOf(await graph.invoke({ messages: [new HumanMessage("And tomorrow?")] }, config)),
};

/** What `way` shows in `mode`, in the words of docs/deployment.md's table; `raw` is what it shows raw. */
async function seen(way: string, mode: Mode, raw?: unknown): Promise<{ value?: unknown; cell: string }> {
  let messages: BaseMessage[];
  try {
    messages = await WAYS[way]!(await drained(mode));
  } catch (error) {
    return { cell: /bedrock 400/.test(String(error)) ? "rejected by the provider" : `throws ${String(error)}` };
  }
  const value = comparable(messages);
  if (mode !== "raw" && JSON.stringify(value) === JSON.stringify(raw)) return { value, cell: "as raw" };
  if (messages.some(isSyntheticMessage)) return { value, cell: "placeholders answer the calls" };
  return { value, cell: messages.some((m) => m.content === "Paris: 15°C") ? "the tools run" : "as stored" };
}

describe("a drained run (RunControl, GraphDrained)", () => {
  it("reads and resumes as docs/deployment.md's table says, raw, through the checkpointer alone and sanitizeGraph", async () => {
    const table: Record<string, Record<Mode, string>> = {};
    for (const way of Object.keys(WAYS)) {
      const raw = await seen(way, "raw");
      table[way] = {
        raw: raw.cell,
        checkpointer: (await seen(way, "checkpointer", raw.value)).cell,
        sanitizeGraph: (await seen(way, "sanitizeGraph", raw.value)).cell,
      };
    }
    expect(table).toEqual({
      getState: { raw: "as stored", checkpointer: "placeholders answer the calls", sanitizeGraph: "as raw" },
      "invoke(null)": { raw: "the tools run", checkpointer: "placeholders answer the calls", sanitizeGraph: "as raw" },
      'invoke(null), tailPolicy: "preserve"': { raw: "the tools run", checkpointer: "as raw", sanitizeGraph: "as raw" },
      "a new message": {
        raw: "rejected by the provider",
        checkpointer: "placeholders answer the calls",
        sanitizeGraph: "placeholders answer the calls",
      },
    });
  });
});
