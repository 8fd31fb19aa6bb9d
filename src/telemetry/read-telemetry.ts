import { PATTERNS, type Repair } from "../repair/report/catalog.js";
import { ATTRIBUTES, createInstruments, METER_NAME, type Instruments } from "./metrics.js";
import {
  loadOpenTelemetry,
  type MeterProviderLike,
  type OpenTelemetryApi,
  type SpanLike,
  type TelemetryAttributes,
} from "./open-telemetry-api.js";
import type { EntryPoint, TelemetryOption } from "./telemetry-option.js";

export const REPAIR_EVENT = "checkpoint_sanitizer.repair";

/** Shared per provider; `null` for the API's no-op provider (no SDK), so a read skips all of it. */
const instrumentsByProvider = new WeakMap<MeterProviderLike, Instruments | null>();

const sortedCounts = (repairs: readonly Repair[]): [string, number][] => {
  const counts = new Map<string, number>();
  for (const { code } of repairs) counts.set(code, (counts.get(code) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
};

/** Read counters, the wrapper's own time, and a span event per repaired read; without an SDK, a lookup. @internal */
export class ReadTelemetry {
  /** A read awaits it, so the first read is recorded too. */
  loading: Promise<void> | undefined;
  private api: OpenTelemetryApi | undefined;
  private provider: MeterProviderLike | undefined;
  private instruments: Instruments | null = null;
  private readonly baseKey: string;

  /** `undefined` when telemetry is off. */
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

  /** `undefined` when nothing records. */
  begin(): number | undefined {
    return this.currentInstruments() === null ? undefined : performance.now();
  }

  /**
   * Per read, not per message: a map lookup per counter and one histogram record. A repair's event goes on `span`
   * (the operation's own), else on the active span.
   */
  record(
    operation: string,
    tail: string,
    provider: string,
    repairs: readonly Repair[],
    started?: number,
    span?: SpanLike,
  ): void {
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
    (span ?? this.api?.trace.getActiveSpan())?.addEvent(REPAIR_EVENT, {
      ...(attributes ?? read()),
      [ATTRIBUTES.codes]: counts.map(([code]) => code),
      [ATTRIBUTES.counts]: counts.map(([, count]) => count),
      [ATTRIBUTES.count]: repairs.length,
    });
  }

  /** Looked up again when the app registers another global provider. */
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
