import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { assertOneOf } from "../options.js";
import type { TailMode } from "../repair/repair-messages.js";
import { hasPendingInterrupt, hasPendingTasks } from "./thread-state.js";

/**
 * How a read treats the tail of a history (see the README's tail-policy table).
 * - `"auto"`: repair the tail only when the tuple shows a run that stopped
 *   midway (pending tasks, no pending interrupt, latest checkpoint, not written
 *   by `updateState`); preserve it otherwise.
 * - `"repair"`: always close the tail: the next call is a new turn.
 * - `"preserve"`: never touch the tail: the next call resumes (`invoke(null)`).
 * - `"off"`: return what the wrapped saver returned.
 */
export type SanitizerPolicy = "auto" | "repair" | "preserve" | "off";

/** The `configurable` key that overrides the policy for one call. @internal */
export const POLICY_CONFIG_KEY = "sanitizer";

/** Every {@link SanitizerPolicy}, for validating options. */
export const POLICIES: readonly SanitizerPolicy[] = ["auto", "repair", "preserve", "off"];

/** The policy of one call: `configurable.sanitizer` when set, else the checkpointer's. */
export function policyFor(config: RunnableConfig, fallback: SanitizerPolicy): SanitizerPolicy {
  const override = config.configurable?.[POLICY_CONFIG_KEY];
  if (override === undefined) return fallback;
  assertOneOf(`configurable.${POLICY_CONFIG_KEY}`, override, POLICIES);
  return override;
}

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
