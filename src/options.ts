/** The options the checkpointer and the middleware share, validated once, and the per-call policy override. */
import type { RunnableConfig } from "@langchain/core/runnables";
import { InvalidOptionError } from "./repair/errors.js";
import { resolveRepairSettings, type RepairRules, type RepairSettings } from "./repair/settings.js";
import { assertOneOf } from "./repair/validate.js";

/** Throws an `InvalidOptionError` naming `name` unless `value` is a list of node names or `"*"`, as `compile()` takes them. @internal */
export function assertBreakpointNodes(name: string, value: unknown): void {
  if (value === "*" || (Array.isArray(value) && value.every((node) => typeof node === "string" && node !== ""))) return;
  throw new InvalidOptionError(
    `${name} must be "*" or an array of node names, as compile({ ${name} }) takes them; got ${JSON.stringify(value)}.`,
    { option: name, value },
  );
}

/** The options the checkpointer and the middleware share: the repair's rules and texts, and a report hook. */
export interface SharedRepairOptions<Event> extends RepairRules {
  /**
   * Called once per repaired channel of a read (the checkpointer) or per repaired request (the middleware),
   * with every repair made in `repairs`, for logs and metrics. It runs inside the call: keep it fast, and do
   * not throw.
   * @default undefined
   */
  onRepair?: (event: Event) => void;
}

/** {@link SharedRepairOptions} once validated: the engine's settings, and the hook. @internal */
export interface ResolvedRepairOptions<Event> {
  repair: RepairSettings;
  onRepair: ((event: Event) => void) | undefined;
}

/**
 * Validates the shared options when they are given (bad marker texts fail here, not on the first broken
 * history) and resolves them once. @internal
 */
export function resolveRepairOptions<Event>(options: SharedRepairOptions<Event>): ResolvedRepairOptions<Event> {
  if (options.onRepair !== undefined && typeof options.onRepair !== "function") {
    throw new InvalidOptionError("onRepair must be a function.", { option: "onRepair", value: options.onRepair });
  }
  return { repair: resolveRepairSettings(options), onRepair: options.onRepair };
}

/**
 * How a read treats the tail of a history (see docs/tail-policy.md).
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

/** Every {@link SanitizerPolicy}, for validating options. @internal */
export const POLICIES: readonly SanitizerPolicy[] = ["auto", "repair", "preserve", "off"];

/** The policy of one call: `configurable.sanitizer` when set, else the checkpointer's. @internal */
export function policyFor(config: RunnableConfig, fallback: SanitizerPolicy): SanitizerPolicy {
  const override = config.configurable?.[POLICY_CONFIG_KEY];
  if (override === undefined) return fallback;
  assertOneOf(`configurable.${POLICY_CONFIG_KEY}`, override, POLICIES);
  return override;
}
