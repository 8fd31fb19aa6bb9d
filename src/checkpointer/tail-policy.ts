import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { TailPolicy } from "../options/policy.js";
import { tailKindOf, type TailKind } from "../repair/walk/tail.js";
import { pausedAtBreakpoint, type Breakpoints, type ReadCheckpoint } from "./breakpoints.js";
import { nextStepOfInput, runContextOf, type NextStep, type ThreadActivity } from "./run-context.js";
import { hasPendingInterrupt, hasPendingTasks, storedInput } from "./thread-state.js";

// A subgraph's loop reads with the parent's `__pregel_read`, and resumes its pending tasks exactly when the parent
// hands it a truthy `__pregel_resuming`.
const CONFIG_KEY_READ = "__pregel_read";
const CONFIG_KEY_RESUMING = "__pregel_resuming";

/** A graph run as a node of another, which hands it its own read. */
export const isNestedRun = (config: RunnableConfig | undefined): boolean =>
  CONFIG_KEY_READ in (config?.configurable ?? {});

export interface ReadKnowledge {
  breakpoints: Breakpoints | undefined;
  /** Set when `sanitizeGraph` built the checkpointer. */
  activity: ThreadActivity | undefined;
  /** In this process, when the read started. */
  runInFlight: boolean;
  /** A parent for `interruptAfter`, a subgraph's checkpoint paused at a breakpoint. */
  read: ReadCheckpoint;
}

/**
 * By LangGraph's own rule where the config shows it: a subgraph resumes when its parent says so, a run when it
 * carries the checkpoint's run id (a server retry). A run continuing an input checkpoint applies that input first.
 */
export function nextStepOf(config: RunnableConfig, tuple: CheckpointTuple): NextStep | undefined {
  const next = requestedNextStep(config, tuple);
  const input = storedInput(tuple.checkpoint);
  return next === "resume" && input !== undefined ? nextStepOfInput(input) : next;
}

function requestedNextStep(config: RunnableConfig, tuple: CheckpointTuple): NextStep | undefined {
  const configurable = config.configurable ?? {};
  if (isNestedRun(config)) return configurable[CONFIG_KEY_RESUMING] ? "resume" : "new-input";
  const runId = (config.metadata as Record<string, unknown> | undefined)?.run_id;
  if (runId !== undefined && runId === (tuple.metadata as Record<string, unknown> | undefined)?.run_id) return "resume";
  return runContextOf(config)?.next;
}

/** The table in docs/tail-policy.md. */
export async function tailForGetTuple(
  policy: TailPolicy,
  config: RunnableConfig,
  tuple: CheckpointTuple,
  knowledge: ReadKnowledge,
): Promise<TailKind | "off"> {
  if (policy !== "auto") return policy === "off" ? "off" : tailKindOf(policy);
  const next = nextStepOf(config, tuple);
  const pending = hasPendingTasks(tuple.checkpoint);
  if (next !== undefined) return next === "resume" ? "resumable" : pending ? "stopped" : "finished";
  if (!pending) return "resumable";
  return (await stoppedToContinue(config, tuple, knowledge)) ? "resumable" : "stopped";
}

/** Time travel, an edit, an `interrupt()`, a breakpoint, or under `sanitizeGraph` anything but a run seen to fail. */
async function stoppedToContinue(
  config: RunnableConfig,
  tuple: CheckpointTuple,
  { breakpoints, activity, runInFlight, read }: ReadKnowledge,
): Promise<boolean> {
  if (config.configurable?.checkpoint_id !== undefined) return true;
  const source = tuple.metadata?.source;
  if (source === "update" || source === "fork") return true;
  if (hasPendingInterrupt(tuple.pendingWrites)) return true;
  if (
    activity !== undefined &&
    runContextOf(config) === undefined &&
    (runInFlight || mayStillContinue(activity, tuple))
  ) {
    return true;
  }
  return pausedAtBreakpoint(tuple, breakpoints, read);
}

/**
 * Only a run this process saw fail left the checkpoint broken for sure; another process, or this one before a
 * restart, may still be working or paused there, so a read that cannot know keeps the tail.
 */
function mayStillContinue(activity: ThreadActivity, tuple: CheckpointTuple): boolean {
  const configurable = tuple.config.configurable ?? {};
  const threadId = configurable.thread_id;
  if (threadId === undefined) return false;
  if (activity.isRunning(String(threadId))) return true;
  const end = activity.lastEnd(String(threadId));
  // A subgraph's checkpoint names its root checkpoint in `metadata.parents`.
  const root = (configurable.checkpoint_ns ?? "") === "" ? tuple.checkpoint.id : tuple.metadata?.parents?.[""];
  return end === undefined || end.checkpointId !== root || end.ok;
}

/** History is mid-run snapshots by nature: tails are preserved. */
export function tailForList(policy: TailPolicy): TailKind | "off" {
  return policy === "off" ? "off" : "resumable";
}
