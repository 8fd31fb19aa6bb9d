/**
 * The metrics, named in OpenTelemetry's semantic-convention style (docs/observability.md describes each): counters
 * per read and per repair, and the wrapper's own time per read.
 */
import type { CounterLike, HistogramLike, MeterProviderLike } from "./open-telemetry-api.js";

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

export interface Instruments {
  reads: CounterLike;
  repairs: CounterLike;
  readDuration: HistogramLike;
}

/** The three instruments, on `provider`'s meter. */
export function createInstruments(provider: MeterProviderLike): Instruments {
  const meter = provider.getMeter(METER_NAME);
  return {
    reads: meter.createCounter(METRIC_NAMES.reads, {
      description: "Histories read through the sanitizer (checkpoint reads, model requests), clean or repaired.",
      unit: "{read}",
    }),
    repairs: meter.createCounter(METRIC_NAMES.repairs, {
      description: "Changes the sanitizer made to histories it read, by pattern and action.",
      unit: "{repair}",
    }),
    readDuration: meter.createHistogram(METRIC_NAMES.readDuration, {
      description: "The sanitizer's own time per read: the repair walk, not the wrapped saver's read.",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  };
}
