import type { RunnableConfig } from "@langchain/core/runnables";
import { assertOneOf } from "./assert-option.js";

/**
 * How a read treats the tail of a history (docs/tail-policy.md):
 * - `"auto"`: repair it only where a run stopped midway; preserve it otherwise;
 * - `"repair"`: always close it: the next call is a new turn;
 * - `"preserve"`: never touch it: the next call resumes (`invoke(null)`);
 * - `"off"`: return what the wrapped saver returned.
 */
export type TailPolicy = "auto" | "repair" | "preserve" | "off";

/** @deprecated The same type under its old name: use {@link TailPolicy}. */
export type SanitizerPolicy = TailPolicy;

/** The per-call key (`configurable.tailPolicy`), and its old name, still read. */
const POLICY_CONFIG_KEYS = ["tailPolicy", "sanitizer"] as const;

/** @internal */
export const POLICIES: readonly TailPolicy[] = ["auto", "repair", "preserve", "off"];

/** Checked per call: read as `"auto"`, a typo for `"preserve"` could repair a tail the call meant to keep. @internal */
export function policyFor(config: RunnableConfig, fallback: TailPolicy): TailPolicy {
  for (const key of POLICY_CONFIG_KEYS) {
    const override = config.configurable?.[key];
    if (override === undefined) continue;
    assertOneOf(`configurable.${key}`, override, POLICIES);
    return override;
  }
  return fallback;
}
