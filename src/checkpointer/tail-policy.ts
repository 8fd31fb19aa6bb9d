import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { SanitizerPolicy } from "../options.js";
import type { TailMode } from "../repair/repair-messages.js";
import { pausedAtBreakpoint, type Breakpoints, type ReadCheckpoint } from "./breakpoints.js";
import { nextStepOfInput, runContextOf, type NextStep, type ThreadActivity } from "./run-context.js";
import { hasPendingInterrupt, hasPendingTasks, storedInput } from "./thread-state.js";

// LangGraph's config keys: a subgraph's loop reads with the parent's `__pregel_read`, and resumes its pending
// tasks exactly when the parent hands it a truthy `__pregel_resuming`.
const CONFIG_KEY_READ = "__pregel_read";
const CONFIG_KEY_RESUMING = "__pregel_resuming";

/** What a read knows beyond its config and tuple. */
export interface ReadKnowledge {
  /** The graph's static breakpoints, when the checkpointer was given them. */
  breakpoints: Breakpoints | undefined;
  /** The runs `sanitizeGraph` serves in this process, when it built the checkpointer. */
  activity: ThreadActivity | undefined;
  /** Whether a run was in flight on the thread, in this process, when the read started. */
  runInFlight: boolean;
  /** Reads a checkpoint of the wrapped saver (a parent for `interruptAfter`, a subgraph's paused at a breakpoint). */
  read: ReadCheckpoint;
}

/**
 * What the call reading `tuple` will do with its pending tasks, by LangGraph's own rule where the config
 * shows it: a subgraph resumes exactly when its parent says so, a run resumes when it carries the run id of
 * the checkpoint's run (the Agent Server retrying a run), and `sanitizeGraph` says what a run's input does.
 * A run that continues an input checkpoint (one stopped, drained or killed right after storing its input) first
 * applies the input stored there: what that input does decides.
 */
export function nextStepOf(config: RunnableConfig, tuple: CheckpointTuple): NextStep | undefined {
  const next = requestedNextStep(config, tuple);
  const input = storedInput(tuple.checkpoint);
  return next === "resume" && input !== undefined ? nextStepOfInput(input) : next;
}

function requestedNextStep(config: RunnableConfig, tuple: CheckpointTuple): NextStep | undefined {
  const configurable = config.configurable ?? {};
  if (CONFIG_KEY_READ in configurable) return configurable[CONFIG_KEY_RESUMING] ? "resume" : "new-input";
  const runId = (config.metadata as Record<string, unknown> | undefined)?.run_id;
  if (runId !== undefined && runId === (tuple.metadata as Record<string, unknown> | undefined)?.run_id) return "resume";
  return runContextOf(config)?.next;
}

/**
 * What `getTuple` does with the tail of the tuple it read, under `policy`. `"auto"`:
 * - a call that continues the pending tasks (`invoke(null)`, `Command`, a subgraph resuming) needs the tail
 *   as it is;
 * - new input discards the pending tasks and answers none of the calls left open (input that holds tool
 *   results is not taken for new input), so the tail is closed for it: as a broken run's leftovers when tasks
 *   were pending, and at the end of a finished run only where it is open (calls left unanswered), as
 *   `"finished"`;
 * - a run that reached its end keeps its tail otherwise: a client may answer calls left there on purpose;
 * - when the call is unknown (a read outside a run, or a checkpointer that does not see the input), the tail
 *   is kept wherever the thread stopped for someone to continue it, and closed where a run broke off or failed.
 */
export async function tailModeForGetTuple(
  policy: SanitizerPolicy,
  config: RunnableConfig,
  tuple: CheckpointTuple,
  knowledge: ReadKnowledge,
): Promise<TailMode | "off"> {
  if (policy !== "auto") return policy;
  const next = nextStepOf(config, tuple);
  const pending = hasPendingTasks(tuple.checkpoint);
  if (next !== undefined) return next === "resume" ? "preserve" : pending ? "repair" : "finished";
  if (!pending) return "preserve";
  return (await stoppedToContinue(config, tuple, knowledge)) ? "preserve" : "repair";
}

/**
 * Whether a thread with pending tasks stopped where it is meant to be continued: a checkpoint addressed by id
 * (time travel), an `updateState` edit, an `interrupt()`, the graph's static breakpoint, or, under
 * `sanitizeGraph`, anything but a run this process saw fail (see {@link mayStillContinue}). A failed step is not
 * among them: without the input, the next call is taken for a new turn, the common case in a chat
 * (`sanitizeGraph` tells a retry apart).
 */
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
 * Whether, as far as this process knows, a run may still continue the tuple's checkpoint: a run in flight here, a
 * run here that stopped at it without an error (a breakpoint set on the run), or a run this process did not see
 * end, which may be working or paused in another process, or in this one before a restart. Only a run this
 * process saw fail at that checkpoint (cancelled, errored) left it broken for sure; a read that cannot know leaves
 * the tail as stored, as the wrapped saver does, and the next new input repairs it in any process.
 */
function mayStillContinue(activity: ThreadActivity, tuple: CheckpointTuple): boolean {
  const configurable = tuple.config.configurable ?? {};
  const threadId = configurable.thread_id;
  if (threadId === undefined) return false;
  if (activity.isRunning(String(threadId))) return true;
  const end = activity.lastEnd(String(threadId));
  // A subgraph's checkpoint names the root checkpoint it ran under in its metadata's `parents`.
  const root = (configurable.checkpoint_ns ?? "") === "" ? tuple.checkpoint.id : tuple.metadata?.parents?.[""];
  return end === undefined || end.checkpointId !== root || end.ok;
}

/**
 * What `list` does with each tail: history is a series of mid-run snapshots
 * by nature, so tails are always preserved, unless the policy is `off`.
 */
export function tailModeForList(policy: SanitizerPolicy): TailMode | "off" {
  return policy === "off" ? "off" : "preserve";
}
