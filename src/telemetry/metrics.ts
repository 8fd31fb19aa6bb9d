// Named in OpenTelemetry's semantic-convention style; docs/observability.md describes each.
import type { HistogramLike, MeterProviderLike, TelemetryAttributes } from "./open-telemetry-api.js";

export const METER_NAME = "langgraph-checkpoint-sanitizer";

export const METRIC_NAMES = {
  reads: "checkpoint_sanitizer.reads",
  repairs: "checkpoint_sanitizer.repairs",
  readDuration: "checkpoint_sanitizer.read.duration",
} as const;
/** On every metric and span event unless said otherwise (docs/observability.md). */
export const ATTRIBUTES = {
  entryPoint: "checkpoint_sanitizer.entry_point",
  operation: "checkpoint_sanitizer.operation",
  saver: "checkpoint_sanitizer.saver",
  provider: "checkpoint_sanitizer.provider",
  tail: "checkpoint_sanitizer.tail",
  outcome: "checkpoint_sanitizer.read.outcome",
  patterns: "checkpoint_sanitizer.read.patterns",
  code: "checkpoint_sanitizer.repair.code",
  action: "checkpoint_sanitizer.repair.action",
  applies: "checkpoint_sanitizer.repair.applies",
  codes: "checkpoint_sanitizer.repair.codes",
  counts: "checkpoint_sanitizer.repair.counts",
  count: "checkpoint_sanitizer.repair.count",
} as const;

/** In seconds: a clean read takes tens of microseconds, a long repair milliseconds. */
const DURATION_BUCKETS = [
  0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
];

/** Summed here and handed to the SDK when it collects: a read costs a map lookup, not the SDK's hashing. */
export class BatchedCounter {
  private readonly totals = new Map<string, { attributes: TelemetryAttributes; value: number }>();

  /** `attributes` builds the series' attributes the first time. */
  add(key: string, value: number, attributes: () => TelemetryAttributes): void {
    const series = this.totals.get(key);
    if (series === undefined) this.totals.set(key, { attributes: attributes(), value });
    else series.value += value;
  }

  readonly observe = (result: { observe(value: number, attributes?: TelemetryAttributes): void }) => {
    for (const { attributes, value } of this.totals.values()) result.observe(value, attributes);
  };
}

export interface Instruments {
  reads: BatchedCounter;
  repairs: BatchedCounter;
  readDuration: HistogramLike;
  /** Built once. */
  durationAttributes: Map<string, TelemetryAttributes>;
}

/** The counters are observable: the SDK reads their totals when it collects. */
export function createInstruments(provider: MeterProviderLike): Instruments {
  const meter = provider.getMeter(METER_NAME);
  const reads = new BatchedCounter();
  const repairs = new BatchedCounter();
  meter
    .createObservableCounter(METRIC_NAMES.reads, {
      description: "Histories read through the sanitizer (checkpoint reads, model requests), clean or repaired.",
      unit: "{read}",
    })
    .addCallback(reads.observe);
  meter
    .createObservableCounter(METRIC_NAMES.repairs, {
      description: "Changes the sanitizer made to histories it read, by pattern and action.",
      unit: "{repair}",
    })
    .addCallback(repairs.observe);
  const readDuration = meter.createHistogram(METRIC_NAMES.readDuration, {
    description: "The sanitizer's own time per read: the repair walk, not the wrapped saver's read.",
    unit: "s",
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  return { reads, repairs, readDuration, durationAttributes: new Map() };
}
