import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { SanitizerPolicy } from "../options.js";
import type { TailMode } from "../repair/repair-messages.js";
import { hasPendingInterrupt, hasPendingTasks } from "./thread-state.js";

/**
 * What `getTuple` does with the tail of the tuple it read, under `policy`.
 * `auto` preserves the tail of a finished run (the graph ended there on
 * purpose), of a paused interrupt (a resume is expected), of an
 * `updateState` write (the app will continue) and of an addressed checkpoint
 * (time travel); it repairs the tail of a run that stopped midway.
 */
export function tailModeForGetTuple(
  policy: SanitizerPolicy,
  config: RunnableConfig,
  tuple: CheckpointTuple,
): TailMode | "off" {
  if (policy !== "auto") return policy;
  if (config.configurable?.checkpoint_id !== undefined) return "preserve";
  const source = tuple.metadata?.source;
  if (source === "update" || source === "fork") return "preserve";
  if (hasPendingInterrupt(tuple.pendingWrites)) return "preserve";
  return hasPendingTasks(tuple.checkpoint) ? "repair" : "preserve";
}

/**
 * What `list` does with each tail: history is a series of mid-run snapshots
 * by nature, so tails are always preserved, unless the policy is `off`.
 */
export function tailModeForList(policy: SanitizerPolicy): TailMode | "off" {
  return policy === "off" ? "off" : "preserve";
}
