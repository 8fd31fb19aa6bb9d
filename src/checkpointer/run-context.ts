// What a read cannot see in the tuple: the call that makes it (docs/internals.md).
import type { RunnableConfig } from "@langchain/core/runnables";
import { holdsToolResult, type InputLists } from "./run-input.js";

/** `"resume"` runs the pending tasks (`null`, a `Command`); `"new-input"` discards them. */
export type NextStep = "resume" | "new-input";

/** Undefined for input that holds tool results. @internal */
export function nextStepOfInput(input: unknown): NextStep | undefined {
  if (input === null || input === undefined) return "resume";
  if (typeof input !== "object") return "new-input";
  // LangGraph's isCommand: a class instance named Command.
  if (Object.getPrototypeOf(input) !== Object.prototype && (input as { lg_name?: unknown }).lg_name === "Command")
    return "resume";
  // Tool results may answer the very calls the thread's tail left open.
  return Object.values(input).some(holdsToolResult) ? undefined : "new-input";
}

/** Shared by all of a run's reads and writes. @internal */
export interface RunContext {
  /** Of the root checkpoint's pending tasks; `undefined` when unknown. */
  next: NextStep | undefined;
  /** Written by `put`, in the root namespace. */
  lastCheckpointId?: string;
  /** Until the run's first root read moves their answers. */
  inputLists?: InputLists;
}

/** How the last run this process saw end on a thread ended. */
export interface RunEnd {
  /** Undefined when it stored none. */
  checkpointId: string | undefined;
  /** Stopped to be continued: END, an `interrupt()`, a static breakpoint, a drain. */
  ok: boolean;
}

/** @internal */
export interface ThreadActivity {
  isRunning(threadId: string): boolean;
  lastEnd(threadId: string): RunEnd | undefined;
}

// Registered, so ESM and CommonJS copies of the package agree on it.
const RUN_CONTEXT = Symbol.for("langgraph-checkpoint-sanitizer.run");

/** @internal */
export function runContextOf(config: RunnableConfig): RunContext | undefined {
  return (config.configurable as Record<symbol, RunContext | undefined> | undefined)?.[RUN_CONTEXT];
}

/** @internal */
export function withRunContext(options: RunnableConfig | undefined, context: RunContext): RunnableConfig {
  return { ...options, configurable: { ...options?.configurable, [RUN_CONTEXT]: context } };
}

/** Taken by the run's first read of the root namespace. @internal */
export function takeInputLists(config: RunnableConfig): InputLists | undefined {
  const run = runContextOf(config);
  // A subgraph's input is its parent's state, not the run's input.
  if (run?.inputLists === undefined || (config.configurable?.checkpoint_ns ?? "") !== "") return undefined;
  const lists = run.inputLists;
  run.inputLists = undefined;
  return lists;
}
