/**
 * What a checkpointer read cannot see in the tuple: the call that makes it. `sanitizeGraph` sees each run's
 * input and puts a {@link RunContext} in the run's `configurable` under a symbol key. LangGraph copies
 * `configurable` with object spreads into the config of every read and write of the run, and nothing
 * serializes a symbol key.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { isMessageLike, roleOf } from "../messages/message-view.js";
import type { InputLists } from "./input-answers.js";

/**
 * What a run does with the pending tasks of the checkpoint it starts from: `"resume"` runs them (a `null`
 * input, a `Command`), `"new-input"` discards them (LangGraph applies new input as a new step).
 */
export type NextStep = "resume" | "new-input";

/** Whether a run's input holds tool results: they may answer the very calls the thread's tail left open. */
const holdsToolResults = (input: object): boolean =>
  Object.values(input).some((value) =>
    (Array.isArray(value) ? value : [value]).some((v) => isMessageLike(v) && roleOf(v) === "tool"),
  );

/**
 * What a run's input does with the thread's pending tasks, as LangGraph's loop treats it; undefined for input that
 * holds tool results, which may answer the calls left open. @internal
 */
export function nextStepOfInput(input: unknown): NextStep | undefined {
  if (input === null || input === undefined) return "resume";
  if (typeof input !== "object") return "new-input";
  // LangGraph's isCommand: a class instance named Command. Any Command continues the pending tasks.
  if (Object.getPrototypeOf(input) !== Object.prototype && (input as { lg_name?: unknown }).lg_name === "Command")
    return "resume";
  return holdsToolResults(input) ? undefined : "new-input";
}

/** One run's context, shared by all of its reads and writes. @internal */
export interface RunContext {
  /** What the run does with the pending tasks of its root checkpoint; `undefined` when unknown. */
  next: NextStep | undefined;
  /** The id of the last checkpoint the run stored in the root namespace (written by `put`). */
  lastCheckpointId?: string;
  /** The run's copy of its input lists that hold tool results, until its first root read moves their answers. */
  inputLists?: InputLists;
}

/** How the last run on a thread that a process saw end ended: the root checkpoint it stopped at, and whether it failed. */
export interface RunEnd {
  /** The last root checkpoint the run stored; undefined when it stored none. */
  checkpointId: string | undefined;
  /** Whether it stopped to be continued: the end of the graph, an `interrupt()`, a static breakpoint, a drain. */
  ok: boolean;
}

/** What the process knows of the runs on a thread, beyond its checkpoints. @internal */
export interface ThreadActivity {
  /** Whether a run on the thread is in flight in this process. */
  isRunning(threadId: string): boolean;
  /** How the thread's last run in this process ended, when this process saw one end. */
  lastEnd(threadId: string): RunEnd | undefined;
}

// A registered symbol, so that two copies of the package (ESM and CommonJS in one process) agree on it.
const RUN_CONTEXT = Symbol.for("langgraph-checkpoint-sanitizer.run");

/** The context of the run `config` belongs to, if `sanitizeGraph` started it. @internal */
export function runContextOf(config: RunnableConfig): RunContext | undefined {
  return (config.configurable as Record<symbol, RunContext | undefined> | undefined)?.[RUN_CONTEXT];
}

/** `options` of a run, carrying `context`. @internal */
export function withRunContext(options: RunnableConfig | undefined, context: RunContext): RunnableConfig {
  return { ...options, configurable: { ...options?.configurable, [RUN_CONTEXT]: context } };
}

/** The input lists of the run `config` belongs to, taken by its first read of the root namespace. @internal */
export function takeInputLists(config: RunnableConfig): InputLists | undefined {
  const run = runContextOf(config);
  // A subgraph's input is its parent's state, not the run's input.
  if (run?.inputLists === undefined || (config.configurable?.checkpoint_ns ?? "") !== "") return undefined;
  const lists = run.inputLists;
  run.inputLists = undefined;
  return lists;
}
