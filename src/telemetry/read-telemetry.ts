import { InvalidOptionError } from "../repair/errors.js";
import { PATTERNS, type Repair } from "../repair/patterns.js";
import { ATTRIBUTES, createInstruments, METER_NAME, type Instruments } from "./metrics.js";
import {
  loadOpenTelemetry,
  type MeterProviderLike,
  type OpenTelemetryApi,
  type TelemetryAttributes,
} from "./open-telemetry-api.js";

/** Where a read came in: the checkpointer (alone or under `sanitizeGraph`), the model-call middleware, the doctor. */
export type EntryPoint = "checkpointer" | "middleware" | "doctor";

/** What the `telemetry` option takes: on, off, or on with a provider of its own. */
export type TelemetryOption =
  | boolean
  | {
      /** Where the metrics go. @default the global MeterProvider (`metrics.setGlobalMeterProvider`, or the SDK's `start()`) */
      meterProvider?: MeterProviderLike;
      /** @internal the doctor says it is the doctor */
      entryPoint?: EntryPoint;
    };

/** The name of the event a repaired read adds to the active span. */
export const REPAIR_EVENT = "checkpoint_sanitizer.repair";

/**
 * The instruments of each provider, shared by every checkpointer and middleware recording to it; `null` for the
 * API's no-op provider (no SDK registered), so that a read skips all of it.
 */
const instrumentsByProvider = new WeakMap<MeterProviderLike, Instruments | null>();

/** Throws an `InvalidOptionError` unless `option` is a {@link TelemetryOption}. @internal */
export function assertTelemetryOption(option: unknown): asserts option is TelemetryOption | undefined {
  if (option === undefined || typeof option === "boolean") return;
  const provider = (option as { meterProvider?: { getMeter?: unknown } } | null)?.meterProvider;
  if (
    typeof option === "object" &&
    option !== null &&
    (provider === undefined || typeof provider.getMeter === "function")
  )
    return;
  throw new InvalidOptionError(
    `telemetry must be true, false or { meterProvider } (an OpenTelemetry MeterProvider), got ${JSON.stringify(option)}.`,
    { option: "telemetry", value: option },
  );
}

const sortedCounts = (repairs: readonly Repair[]): [string, number][] => {
  const counts = new Map<string, number>();
  for (const { code } of repairs) counts.set(code, (counts.get(code) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
};

/**
 * Records each read to OpenTelemetry: the read and repair counters, the wrapper's own time, and an event on the
 * active span when the read repaired something. It knows no pattern: it records the codes and actions a read's
 * repairs carry. Until `@opentelemetry/api` is loaded (`loading`), without it, and without an SDK, it records
 * no metrics and costs a lookup. A read calls {@link begin} for its start time, then {@link record}.
 * @internal
 */
export class ReadTelemetry {
  /** Pending while `@opentelemetry/api` loads: a read awaits it, so that the first read is recorded too. */
  loading: Promise<void> | undefined;
  private api: OpenTelemetryApi | undefined;
  private provider: MeterProviderLike | undefined;
  private instruments: Instruments | null = null;
  /** What tells this entry point and saver's series from those of others recording to the same provider. */
  private readonly baseKey: string;

  /** `undefined` when `option` turns telemetry off. */
  static create(option: TelemetryOption | undefined, base: { entryPoint: EntryPoint; saver?: string }) {
    if (option === false) return undefined;
    const own = typeof option === "object" ? option : {};
    return new ReadTelemetry(own.meterProvider, {
      [ATTRIBUTES.entryPoint]: own.entryPoint ?? base.entryPoint,
      ...(base.saver !== undefined ? { [ATTRIBUTES.saver]: base.saver } : {}),
    });
  }

  private constructor(
    private readonly meterProvider: MeterProviderLike | undefined,
    private readonly base: TelemetryAttributes,
  ) {
    this.baseKey = `${base[ATTRIBUTES.entryPoint]}|${base[ATTRIBUTES.saver] ?? ""}`;
    this.loading = loadOpenTelemetry().then((api) => {
      this.api = api;
      this.loading = undefined;
    });
  }

  /** The time a read starts, when anything records it; `undefined` otherwise. */
  begin(): number | undefined {
    return this.currentInstruments() === null ? undefined : performance.now();
  }

  /**
   * One read, timed from `started` when {@link begin} returned a time (else counted, not timed): `repairs` are all
   * it made, none for a clean read. Per read, not per message: a map lookup for each counter and one histogram
   * record. A repaired read also adds an event to the active span, with or without an SDK for metrics.
   */
  record(operation: string, tail: string, provider: string, repairs: readonly Repair[], started?: number): void {
    const instruments = this.currentInstruments();
    if (instruments === null && repairs.length === 0) return;
    const counts = repairs.length === 0 ? [] : sortedCounts(repairs);
    const patterns = counts.map(([code]) => code).join(",");
    const key = `${this.baseKey}|${operation}|${tail}|${provider}|${patterns}`;
    const read = () => ({
      ...this.base,
      [ATTRIBUTES.operation]: operation,
      [ATTRIBUTES.provider]: provider,
      [ATTRIBUTES.tail]: tail,
      [ATTRIBUTES.outcome]: patterns === "" ? "clean" : "repaired",
      ...(patterns === "" ? {} : { [ATTRIBUTES.patterns]: patterns }),
    });
    let attributes: TelemetryAttributes | undefined;
    if (instruments !== null) {
      instruments.reads.add(key, 1, read);
      attributes = instruments.durationAttributes.get(key);
      if (attributes === undefined) instruments.durationAttributes.set(key, (attributes = read()));
      if (started !== undefined) instruments.readDuration.record((performance.now() - started) / 1000, attributes);
      for (const { code, action } of repairs) {
        instruments.repairs.add(`${this.baseKey}|${operation}|${tail}|${provider}|${code}|${action}`, 1, () => ({
          ...this.base,
          [ATTRIBUTES.operation]: operation,
          [ATTRIBUTES.provider]: provider,
          [ATTRIBUTES.tail]: tail,
          [ATTRIBUTES.code]: code,
          [ATTRIBUTES.action]: action,
          [ATTRIBUTES.applies]: PATTERNS[code]?.applies.join(",") ?? "unknown",
        }));
      }
    }
    if (repairs.length === 0) return;
    this.api?.trace.getActiveSpan()?.addEvent(REPAIR_EVENT, {
      ...(attributes ?? read()),
      [ATTRIBUTES.codes]: counts.map(([code]) => code),
      [ATTRIBUTES.counts]: counts.map(([, count]) => count),
      [ATTRIBUTES.count]: repairs.length,
    });
  }

  /** The instruments of the provider in use; looked up again when the app registers another global provider. */
  private currentInstruments(): Instruments | null {
    const provider = this.meterProvider ?? this.api?.metrics.getMeterProvider();
    if (provider === undefined) return null;
    if (provider !== this.provider) {
      let instruments = instrumentsByProvider.get(provider);
      if (instruments === undefined) {
        instruments = this.isNoop(provider) ? null : createInstruments(provider);
        instrumentsByProvider.set(provider, instruments);
      }
      this.provider = provider;
      this.instruments = instruments;
    }
    return this.instruments;
  }

  private isNoop(provider: MeterProviderLike): boolean {
    return (
      this.api !== undefined && provider.getMeter(METER_NAME).constructor === this.api.createNoopMeter().constructor
    );
  }
}
