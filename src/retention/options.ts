import { InvalidOptionError } from "../options/invalid-option-error.js";
import { assertOption } from "../options/assert-option.js";
import { assertTelemetryOption, type TelemetryOption } from "../telemetry/telemetry-option.js";
import type { PruneProgress, PrunedThread } from "./report.js";

/**
 * Options of `prune`: which checkpoints to keep. Give `keepLast`, `olderThan` or both; a checkpoint goes only when
 * every one given lets it go, and never when a read of what is kept needs it (docs/retention.md).
 */
export interface PruneOptions {
  /**
   * Keep the newest N checkpoints of each thread namespace, a positive whole number.
   * @default undefined (the age alone decides)
   */
  keepLast?: number;
  /**
   * Keep the checkpoints newer than this: milliseconds, or a duration such as `"30d"`, `"12h"`, `"90m"`, `"2w"`. With
   * `keepLast`, a checkpoint goes only when it is past the newest N and older than this.
   * @default undefined (keepLast alone decides)
   */
  olderThan?: number | string;
  /** Only this thread. @default every thread of the store */
  threadId?: string;
  /**
   * Only the threads after this id, in the store's order: where a stopped run continues (`stopped.after`). @default
   * none
   */
  after?: string;
  /** Report what would go and remove nothing. @default false */
  dryRun?: boolean;
  /** Batches under way finish (each thread whole) and the report so far is returned with `stopped`. @default none */
  signal?: AbortSignal;
  /** Called after each batch of threads. @default none */
  onProgress?: (progress: PruneProgress) => void;
  /**
   * Called with each thread something was (or, in a dry run, would be) removed from, in the store's order. Given it,
   * the report's `threads` stays empty, so memory stays flat on a store of any size.
   * @default none (the threads are collected in the report)
   */
  onThread?: (thread: PrunedThread) => void;
  /**
   * A span per batch of threads (`checkpoint_sanitizer.prune`), as the checkpointer's operations: the global
   * TracerProvider, `{ tracerProvider }`, or `false` for none (docs/observability.md).
   * @default true; `SanitizingCheckpointer.prune` takes its own `telemetry`
   */
  telemetry?: TelemetryOption;
}

/** @internal */
export interface RetentionPolicy {
  keepLast: number | undefined;
  /** Milliseconds. */
  olderThan: number | undefined;
}

/** @internal */
export interface ResolvedPruneOptions extends RetentionPolicy {
  threadId: string | undefined;
  after: string | undefined;
  dryRun: boolean;
  signal: AbortSignal | undefined;
  onProgress: ((progress: PruneProgress) => void) | undefined;
  onThread: ((thread: PrunedThread) => void) | undefined;
  telemetry: TelemetryOption | undefined;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/;

/** `"30d"` in milliseconds; `undefined` when it is not a duration. @internal */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : undefined;
}

function olderThanMs(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === "string" ? parseDuration(value) : typeof value === "number" ? value : undefined;
  const valid = ms !== undefined && Number.isFinite(ms) && ms >= 0;
  assertOption("olderThan", value, valid, 'must be milliseconds (0 or more) or a duration such as "30d", "12h", "90m"');
  return ms;
}

const optionalString = (name: string, value: unknown) =>
  assertOption(name, value, value === undefined || typeof value === "string", "must be a string");

const optionalFunction = (name: string, value: unknown) =>
  assertOption(name, value, value === undefined || typeof value === "function", "must be a function");

/** Throws an `InvalidOptionError` naming the first bad option. @internal */
export function resolvePruneOptions(options: PruneOptions): ResolvedPruneOptions {
  if (typeof options !== "object" || options === null)
    throw new InvalidOptionError("prune takes an options object such as { keepLast: 10 }.", {
      option: "options",
      value: options,
    });
  const { keepLast, threadId, after, dryRun = false, signal, onProgress, onThread, telemetry } = options;
  if (keepLast !== undefined)
    assertOption("keepLast", keepLast, Number.isInteger(keepLast) && keepLast > 0, "must be a positive whole number");
  const olderThan = olderThanMs(options.olderThan);
  if (keepLast === undefined && olderThan === undefined)
    throw new InvalidOptionError(
      'prune needs keepLast, olderThan or both: { keepLast: 10 } keeps the newest 10 checkpoints of each thread, { olderThan: "30d" } those of the last 30 days.',
      { option: "keepLast", value: undefined },
    );
  optionalString("threadId", threadId);
  optionalString("after", after);
  assertOption("dryRun", dryRun, typeof dryRun === "boolean", "must be true or false");
  const isSignal = signal === undefined || (typeof signal === "object" && signal !== null && "aborted" in signal);
  assertOption("signal", signal, isSignal, "must be an AbortSignal");
  optionalFunction("onProgress", onProgress);
  optionalFunction("onThread", onThread);
  assertTelemetryOption(telemetry);
  return { keepLast, olderThan, threadId, after, dryRun, signal, onProgress, onThread, telemetry };
}
