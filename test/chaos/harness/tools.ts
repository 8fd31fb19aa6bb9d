/**
 * The tools of every chaos graph. Each tool looks up its thread (by `thread_id`) for how long to work and whom to
 * tell it started and ended: graphs are built once and serve every thread, as a server's graph does.
 * `search` and `lookup` work for a random time and stop when the run is cancelled; `confirm` asks a human first
 * (`interrupt()`). A result names its call's arguments, so the same call always gives the same result.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { interrupt } from "@langchain/langgraph";
import type { ToolFn } from "../../support/graphs/react-graph.js";
import { sleep } from "../../support/graphs/strict-chat-model.js";
import { Random } from "./random.js";

export const TOOL_NAMES = ["search", "lookup", "confirm"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** What a thread's tools need: its seed, how long a tool may work, and the run's progress to report to. */
export interface ThreadTools {
  seed: string;
  maxToolMs: number;
  toolStarted(): void;
  toolEnded(): void;
  /**
   * Whether the run's tools, cancelled while they work, never return: LangGraph's stream of the cancelled run then
   * never closes (until the thread is over, see {@link releaseHungTools}).
   */
  ignoresAbort?(): boolean;
}

/** Tools that hang (see {@link ThreadTools.ignoresAbort}), failed once their thread is done with them. */
const hanging = new Map<string, Set<(error: Error) => void>>();

/** Fails the hung tools of `thread`: its runs' streams may close now that the thread is over. */
export function releaseHungTools(thread: string): void {
  for (const fail of hanging.get(thread) ?? []) fail(new Error("the thread is over"));
  hanging.delete(thread);
}

const hang = (thread: string) =>
  new Promise<never>((_, reject) => {
    if (!hanging.has(thread)) hanging.set(thread, new Set());
    hanging.get(thread)!.add(reject);
  });

// On globalThis: the Agent Server imports the graph module (and this one) on its own, and its tools must find the
// threads the soak registered. Looked up on each use, and removed once no thread uses it, so that no global outlives
// the soak.
const REGISTRY = Symbol.for("langgraph-checkpoint-sanitizer.chaos.tools");
const holder = globalThis as { [REGISTRY]?: Map<string, ThreadTools> };

/** Makes `tools` the tools of `thread` until the returned function is called. */
export function useTools(thread: string, tools: ThreadTools): () => void {
  (holder[REGISTRY] ??= new Map()).set(thread, tools);
  return () => {
    holder[REGISTRY]?.delete(thread);
    if (holder[REGISTRY]?.size === 0) delete holder[REGISTRY];
  };
}

/** The real result of a call: what a tool returns and what the checks look for. */
export const realResult = (name: string, city: unknown) => `${name} ${String(city)}: 15°C`;

const working =
  (name: ToolName): ToolFn =>
  async (args, config: RunnableConfig) => {
    const id = String(config.configurable?.thread_id);
    const thread = holder[REGISTRY]?.get(id);
    if (thread === undefined) return realResult(name, args.city);
    thread.toolStarted();
    try {
      const ms = new Random(`${thread.seed}/${name}/${String(args.city)}`).int(0, thread.maxToolMs);
      try {
        await sleep(ms, config.signal);
      } catch (error) {
        if (config.signal?.aborted && thread.ignoresAbort?.()) return await hang(id);
        throw error;
      }
      return realResult(name, args.city);
    } finally {
      thread.toolEnded();
    }
  };

export const CHAOS_TOOLS: Record<ToolName, ToolFn> = {
  search: working("search"),
  lookup: working("lookup"),
  confirm: (args) => `${realResult("confirm", args.city)} (${String(interrupt({ confirm: args.city }))})`,
};
