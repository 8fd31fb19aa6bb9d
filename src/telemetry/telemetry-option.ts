import { InvalidOptionError } from "../options/invalid-option-error.js";
import { assertOneOf } from "../options/assert-option.js";
import type { MeterProviderLike, TracerProviderLike } from "./open-telemetry-api.js";

export type EntryPoint = "checkpointer" | "middleware" | "doctor";

/** How a span records a thread id (docs/observability.md#thread-ids). */
export type ThreadIdRecording = "as-stored" | "hashed" | "omitted";

export const THREAD_ID_RECORDINGS: readonly ThreadIdRecording[] = ["as-stored", "hashed", "omitted"];

/** On, off, or on with providers of its own. `false` turns off the metrics and the spans. */
export type TelemetryOption =
  | boolean
  | {
      /**
       * Where the metrics go. @default the global MeterProvider (`metrics.setGlobalMeterProvider`, or the SDK's
       * `start()`)
       */
      meterProvider?: MeterProviderLike;
      /**
       * Where the checkpointer's spans go, one per operation.
       * @default the global TracerProvider (`trace.setGlobalTracerProvider`, or the SDK's `start()`)
       */
      tracerProvider?: TracerProviderLike;
      /**
       * The thread id on spans: `"as-stored"` (as the doctor's `--json` prints it), `"hashed"` (16 hex digits of the
       * 64-bit FNV-1a of its UTF-8 bytes: one thread's spans still group, and an id you know can be looked up, but an
       * id that can be guessed, such as an email address, can be found by hashing guesses), or `"omitted"`.
       * @default "as-stored"
       */
      threadIds?: ThreadIdRecording;
      /** @internal the doctor says it is the doctor */
      entryPoint?: EntryPoint;
    };

const FIELDS = new Set(["meterProvider", "tracerProvider", "threadIds", "entryPoint"]);

/** A provider is an object with the one method used; anything else fails with what was given, never its contents. */
function assertProvider(name: string, provider: unknown, method: string, what: string): void {
  if (provider === undefined || typeof (provider as Record<string, unknown> | null)?.[method] === "function") return;
  const given =
    provider === null || typeof provider !== "object" ? JSON.stringify(provider) : `an object without ${method}`;
  throw new InvalidOptionError(`${name} must be ${what} (with ${method}), got ${given}.`, {
    option: name,
    value: provider,
  });
}

/** @internal */
export function assertTelemetryOption(option: unknown): asserts option is TelemetryOption | undefined {
  if (option === undefined || typeof option === "boolean") return;
  const unknown = typeof option === "object" && option !== null && Object.keys(option).find((k) => !FIELDS.has(k));
  if (typeof option !== "object" || option === null || unknown) {
    throw new InvalidOptionError(
      `telemetry must be true, false or { meterProvider?, tracerProvider?, threadIds? }, got ${
        unknown ? `a field ${JSON.stringify(unknown)}` : JSON.stringify(option)
      }.`,
      { option: "telemetry", value: option },
    );
  }
  const { meterProvider, tracerProvider, threadIds } = option as Exclude<TelemetryOption, boolean>;
  assertProvider("telemetry.meterProvider", meterProvider, "getMeter", "an OpenTelemetry MeterProvider");
  assertProvider("telemetry.tracerProvider", tracerProvider, "getTracer", "an OpenTelemetry TracerProvider");
  if (threadIds !== undefined) assertOneOf("telemetry.threadIds", threadIds, THREAD_ID_RECORDINGS);
}
