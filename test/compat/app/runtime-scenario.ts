/**
 * The main entry on other JavaScript runtimes (test/compat/runtimes.test.ts): a ReAct graph on MemorySaver whose
 * first turn is cancelled while a tool runs, then the next user message on the same thread, on the raw saver,
 * through `SanitizingCheckpointer` and through `sanitizeGraph`; and `repairMessages` on a broken list.
 *
 * It uses only the package's main entry, `@langchain/langgraph` and `@langchain/core`, and only what every
 * runtime has (no `node:*` module, no environment variable), so one source serves Node, Bun, Deno and workerd:
 * `runScenario()` for a command-line entry, and the default export as a Worker (`fetch` answers with the
 * results as JSON).
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  type BaseCheckpointSaver,
} from "@langchain/langgraph";
import { SanitizingCheckpointer, repairMessages, sanitizeGraph } from "langgraph-checkpoint-sanitizer";
import { rejectingProviders } from "../../support/oracle/provider-rejections.js";
import { FIRST_QUESTION, agentModel } from "../../support/graphs/agent-model.js";
import { settled } from "../../support/savers/settled.js";

export type Results = Record<string, { ok: boolean; detail: string }>;

const NEXT = "Thanks, and tomorrow?";

type Mode = "raw" | "checkpointer" | "sanitizeGraph";
type Tool = (config: RunnableConfig) => Promise<string> | string;

/** Which runtime this is, as the test expects to read it: `Node 22.…`, `Bun 1.…`, `Deno 2.…` or `workerd`. */
export function runtimeName(): string {
  const g = globalThis as {
    Bun?: { version: string };
    Deno?: { version: { deno: string } };
    navigator?: { userAgent?: string };
    process?: { versions?: { node?: string } };
  };
  if (g.Bun !== undefined) return `Bun ${g.Bun.version}`;
  if (g.Deno !== undefined) return `Deno ${g.Deno.version.deno}`;
  // workerd's `nodejs_compat` has a `process` too (with a made-up Node version): its user agent comes first.
  if (g.navigator?.userAgent === "Cloudflare-Workers") return "workerd";
  if (g.process?.versions?.node !== undefined) return `Node ${g.process.versions.node}`;
  return g.navigator?.userAgent ?? "unknown";
}

/** A ReAct graph: the model node, one tools node running every call, and the loop back. */
function builder(tools: Record<string, Tool>) {
  const model = agentModel("bedrock");
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
    .addNode("tools", async (state, config) => {
      const last = state.messages.at(-1) as AIMessage;
      const results = await Promise.all(
        (last.tool_calls ?? []).map(
          async (call) =>
            new ToolMessage({ content: await tools[call.name]!(config), tool_call_id: call.id!, name: call.name }),
        ),
      );
      return { messages: results };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END))
    .addEdge("tools", "agent");
}

/** The graph on `saver`, read the `mode` way. */
function compile(saver: BaseCheckpointSaver, mode: Mode, tools: Record<string, Tool>) {
  const graph = builder(tools).compile({
    checkpointer: mode === "checkpointer" ? new SanitizingCheckpointer(saver) : saver,
  });
  return mode === "sanitizeGraph" ? sanitizeGraph(graph) : graph;
}

const config = (signal?: AbortSignal) => ({
  configurable: { thread_id: "thread" },
  durability: "sync" as const,
  ...(signal ? { signal } : {}),
});

/** Rejects when `signal` aborts: a tool still working when the run is cancelled. */
const hang = (signal: AbortSignal | undefined) =>
  new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }));

const calm: Record<string, Tool> = { search: () => "Paris: 15°C", lookup: () => "Seoul: 12°C" };

/** The first turn cancelled while `search` runs, then the next message: the reply's history, or the rejection. */
async function cancelledThenNext(mode: Mode): Promise<{ messages: BaseMessage[] } | { error: string }> {
  const saver = new MemorySaver();
  const controller = new AbortController();
  const tools: Record<string, Tool> = {
    search: ({ signal }) => (controller.abort(), hang(signal)),
    lookup: () => "Seoul: 12°C",
  };
  let cancelled = false;
  try {
    await compile(saver, mode, tools).invoke(
      { messages: [new HumanMessage(FIRST_QUESTION)] },
      config(controller.signal),
    );
  } catch {
    cancelled = true;
  }
  if (!cancelled) throw new Error("the first turn was not cancelled");
  await settled(saver, "thread");
  try {
    const state = await compile(saver, mode, calm).invoke({ messages: [new HumanMessage(NEXT)] }, config());
    return { messages: state.messages };
  } catch (error) {
    return { error: String(error) };
  }
}

const transcript = (messages: BaseMessage[]) => messages.map((m) => `${m.type}: ${String(m.content)}`).join(" | ");

/** Fails unless the next turn was answered on a history every provider accepts. */
function answered(next: { messages: BaseMessage[] } | { error: string }): string {
  if ("error" in next) throw new Error(`the next turn was rejected: ${next.error}`);
  const rejecting = rejectingProviders(next.messages);
  if (Object.keys(rejecting).length > 0) throw new Error(`rejected by ${JSON.stringify(rejecting)}`);
  if (next.messages.at(-1)?.type !== "ai") throw new Error(`no reply: ${transcript(next.messages)}`);
  return transcript(next.messages);
}

const CHECKS: Record<string, () => Promise<string>> = {
  async "raw MemorySaver: the next message is rejected"() {
    const next = await cancelledThenNext("raw");
    if (!("error" in next)) throw new Error(`the raw saver was expected to be rejected: ${transcript(next.messages)}`);
    // The strict model's own rejection, not a failure of anything else.
    if (!next.error.startsWith("ProviderRejection: bedrock 400")) throw new Error(`failed otherwise: ${next.error}`);
    return next.error;
  },
  async "SanitizingCheckpointer over MemorySaver: the next message is answered"() {
    return answered(await cancelledThenNext("checkpointer"));
  },
  async "sanitizeGraph: the next message is answered"() {
    return answered(await cancelledThenNext("sanitizeGraph"));
  },
  async "repairMessages: a broken list is repaired"() {
    const broken = [
      new HumanMessage(FIRST_QUESTION),
      new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "search", args: { city: "Paris" } }] }),
      new HumanMessage(NEXT),
    ];
    if (Object.keys(rejectingProviders(broken)).length === 0) throw new Error("the broken list is accepted as it is");
    const { messages, repairs } = repairMessages(broken);
    if (repairs.length === 0) throw new Error("no repairs");
    const rejecting = rejectingProviders(messages as BaseMessage[]);
    if (Object.keys(rejecting).length > 0) throw new Error(`still rejected by ${JSON.stringify(rejecting)}`);
    return repairs.map((r) => r.kind).join(", ");
  },
};

/** Runs every check; each gives `{ ok, detail }`, and `runtime` names the runtime it ran on. */
export async function runScenario(): Promise<Results> {
  const results: Results = { runtime: { ok: true, detail: runtimeName() } };
  for (const [name, check] of Object.entries(CHECKS)) {
    try {
      results[name] = { ok: true, detail: await check() };
    } catch (error) {
      results[name] = { ok: false, detail: (error as Error).stack ?? String(error) };
    }
  }
  return results;
}

/** The Worker: every request answers with the results. */
export default {
  async fetch(): Promise<Response> {
    return Response.json(await runScenario());
  },
};
