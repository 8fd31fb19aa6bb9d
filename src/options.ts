/** The options the checkpointer and the middleware share, validated once, and the per-call policy override. */
import type { RunnableConfig } from "@langchain/core/runnables";
import { InvalidOptionError } from "./repair/errors.js";
import { resolveRepairSettings, type RepairRules, type RepairSettings } from "./repair/settings.js";
import { assertOneOf } from "./repair/validate.js";
import { assertTelemetryOption, type TelemetryOption } from "./telemetry/read-telemetry.js";

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
  /**
   * OpenTelemetry metrics of every read and an event on the active span for each repair (docs/observability.md),
   * recorded through `@opentelemetry/api` when the app has it installed: without an SDK they cost next to nothing,
   * and without the package nothing is loaded. `false` turns them off; `{ meterProvider }` records to that provider
   * instead of the global one.
   * @default true
   */
  telemetry?: TelemetryOption;
}

/** How a `SanitizingCheckpointer` reads its saver. */
export interface ReadOptions {
  /**
   * Read through `FastJsonPlusSerializer` when the wrapped saver uses the stock `JsonPlusSerializer`: it becomes the
   * saver's `serde`, which writes the same bytes and reads the same values several times faster. A saver with a
   * serializer of its own keeps it; `false` leaves the saver as it is. See docs/serializer.md.
   * @default true
   */
  fastReads?: boolean;
}

/** `fastReads` when it is a boolean or not given; throws an `InvalidOptionError` otherwise. @internal */
export function assertFastReads(fastReads: unknown): boolean {
  if (fastReads === undefined || typeof fastReads === "boolean") return fastReads ?? true;
  throw new InvalidOptionError(
    `fastReads must be true or false (false keeps the wrapped saver's stock serializer), got ${JSON.stringify(fastReads)}.`,
    { option: "fastReads", value: fastReads, allowed: [true, false] },
  );
}

/** {@link SharedRepairOptions} once validated: the engine's settings, and the hook. @internal */
export interface ResolvedRepairOptions<Event> {
  repair: RepairSettings;
  onRepair: ((event: Event) => void) | undefined;
  telemetry: TelemetryOption | undefined;
}

/**
 * Validates the shared options when they are given (bad marker texts fail here, not on the first broken
 * history) and resolves them once. @internal
 */
export function resolveRepairOptions<Event>(options: SharedRepairOptions<Event>): ResolvedRepairOptions<Event> {
  if (options.onRepair !== undefined && typeof options.onRepair !== "function") {
    throw new InvalidOptionError("onRepair must be a function.", { option: "onRepair", value: options.onRepair });
  }
  assertTelemetryOption(options.telemetry);
  return { repair: resolveRepairSettings(options), onRepair: options.onRepair, telemetry: options.telemetry };
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

/**
 * The policy of one call: `configurable.sanitizer` when set, else the checkpointer's. The one option checked on a
 * call, as it comes with it: an unknown value throws an `InvalidOptionError` there, since read as `"auto"`, a typo for
 * `"preserve"` could repair a tail the call meant to keep. @internal
 */
export function policyFor(config: RunnableConfig, fallback: SanitizerPolicy): SanitizerPolicy {
  const override = config.configurable?.[POLICY_CONFIG_KEY];
  if (override === undefined) return fallback;
  assertOneOf(`configurable.${POLICY_CONFIG_KEY}`, override, POLICIES);
  return override;
}
