/**
 * The metrics, named in OpenTelemetry's semantic-convention style (docs/observability.md describes each): counters
 * of reads and of repairs, and the wrapper's own time per read.
 */
import type { HistogramLike, MeterProviderLike, TelemetryAttributes } from "./open-telemetry-api.js";

/** The instrumentation scope the metrics are recorded under. */
export const METER_NAME = "langgraph-checkpoint-sanitizer";

export const METRIC_NAMES = {
  reads: "checkpoint_sanitizer.reads",
  repairs: "checkpoint_sanitizer.repairs",
  readDuration: "checkpoint_sanitizer.read.duration",
} as const;
/** Attribute keys, on every metric and span event unless said otherwise. */
export const ATTRIBUTES = {
  /** `checkpointer`, `middleware` or `doctor`. */
  entryPoint: "checkpoint_sanitizer.entry_point",
  /** `getTuple`, `list` or `wrapModelCall`. */
  operation: "checkpoint_sanitizer.operation",
  /** The wrapped saver's class (not on the middleware's requests). */
  saver: "checkpoint_sanitizer.saver",
  /** The `provider` setting, `none` when unset (the middleware: the rules of the model called). */
  provider: "checkpoint_sanitizer.provider",
  /** The tail decision: `repair`, `preserve`, `finished` or `request`. */
  tail: "checkpoint_sanitizer.tail",
  /** Reads and their duration: `clean` or `repaired`. */
  outcome: "checkpoint_sanitizer.read.outcome",
  /** Repaired reads: the codes of the patterns repaired, sorted, joined by commas (`B,C`). */
  patterns: "checkpoint_sanitizer.read.patterns",
  /** Repairs: the pattern's code (`B`). */
  code: "checkpoint_sanitizer.repair.code",
  /** Repairs: `inserted`, `removed`, `moved` or `rewritten`. */
  action: "checkpoint_sanitizer.repair.action",
  /** Repairs: where the pattern applies, as in the README's table (`anywhere`, `leftovers,provider`, …). */
  applies: "checkpoint_sanitizer.repair.applies",
  /** Span events: the codes of the patterns repaired, sorted (`["B", "C"]`). */
  codes: "checkpoint_sanitizer.repair.codes",
  /** Span events: how many repairs of each of those codes (`[2, 1]`). */
  counts: "checkpoint_sanitizer.repair.counts",
  /** Span events: how many repairs in all. */
  count: "checkpoint_sanitizer.repair.count",
} as const;

/** Upper bounds of the duration buckets, in seconds: a clean read takes tens of microseconds, a long repair milliseconds. */
const DURATION_BUCKETS = [
  0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
];

/** A counter summed here and handed to the SDK when it collects: a read costs a map lookup, not the SDK's hashing. */
export class BatchedCounter {
  private readonly totals = new Map<string, { attributes: TelemetryAttributes; value: number }>();

  /** Adds `value` to the series `key` names; `attributes` builds its attributes the first time. */
  add(key: string, value: number, attributes: () => TelemetryAttributes): void {
    const series = this.totals.get(key);
    if (series === undefined) this.totals.set(key, { attributes: attributes(), value });
    else series.value += value;
  }

  /** The observable counter's callback: each series' running total. */
  readonly observe = (result: { observe(value: number, attributes?: TelemetryAttributes): void }) => {
    for (const { attributes, value } of this.totals.values()) result.observe(value, attributes);
  };
}

export interface Instruments {
  reads: BatchedCounter;
  repairs: BatchedCounter;
  readDuration: HistogramLike;
  /** The attributes of each duration series, built once. */
  durationAttributes: Map<string, TelemetryAttributes>;
}

/** The three instruments on `provider`'s meter. The counters are observable: the SDK reads their totals when it collects. */
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
