/**
 * The soak's figures: counts (threads, cancellations and other faults by where they landed, and the five that must
 * stay zero),
 * `getTuple` latency per backend through the sanitizer and of the saver inside it, and samples over time of the
 * heap (after a full GC when the process runs with --expose-gc) and of the sizes the wrapper's maps reach.
 * Everything is kept in fixed memory, except a few examples of each failure.
 */
import { Histogram } from "./histogram.js";
import { Traces } from "./trace.js";

/** What the outage phase measured on one backend. Every figure but `outages` and `turns` must be zero. */
export interface OutageFigures {
  backend: string;
  outages: number;
  /** Turns an outage landed in, and of them those that failed (cleanly: an error to the caller). */
  turns: number;
  failedTurns: number;
  /** Checkpoints stored before an outage and missing after it. */
  lost: number;
  /** Checkpoints that no longer load. */
  unloadable: number;
  /** Turns a provider rejected: during an outage, or after the server was back (every next turn must be answered). */
  rejected: number;
  /** Writes (`put`) that reported failure, of which stored once the server was back. */
  failedWrites: number;
  landedAfterFailure: number;
}

export const OUTAGE_FIGURES = ["lost", "unloadable", "rejected", "landedAfterFailure"] as const;

/** Counts by key. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  get total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }
  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** The faults beyond a cancellation the soak drives. */
export const FAULTS = ["kill", "sigterm", "drain", "neverCloses"] as const;
export type Fault = (typeof FAULTS)[number];
export const FAULT_LABELS: Record<Fault, string> = {
  kill: "process killed (SIGKILL)",
  sigterm: "process drained on SIGTERM",
  drain: "run drained (RunControl)",
  neverCloses: "cancelled, stream never closes",
};

/** A latency series: the whole run, and the window since the last sample. */
export class LatencySeries {
  readonly total = new Histogram();
  window = new Histogram();
  record(ms: number): void {
    this.total.record(ms);
    this.window.record(ms);
  }
}

/** The sizes of one wrapper's maps (see `wrapperMaps`). */
export interface MapSizes {
  /** ReadDecisions: the decisions of recent reads (capped at 512). */
  decisions: number;
  /** sanitizeGraph's run tracker: threads with a run in flight. */
  running: number;
  /** sanitizeGraph's run tracker: threads whose last run's end is remembered (capped at 10,000). */
  ended: number;
}

/** One sample of the timeline. */
export interface Sample {
  /** Seconds since the soak started. */
  t: number;
  phase: string;
  heapMb: number;
  cancellations: number;
  maps: MapSizes;
  /** getTuple p50 / p99 in this window, in ms: through the sanitizer, and the saver's own. */
  sanitized: [number, number];
  raw: [number, number];
}

/** One failure, kept as an example (the first few of each figure). */
export interface Failure {
  figure: string;
  thread: string;
  detail: string;
}

const EXAMPLES_PER_FIGURE = 8;

export class Metrics {
  readonly started = performance.now();
  /** Each thread's trace, when the run keeps them. */
  traces = new Traces(false);
  threads = new Tally();
  controlThreads = 0;
  turns = 0;
  /** Cancellations by dimension: backend, client, graph, landing, durability. */
  readonly cancellations = {
    backend: new Tally(),
    client: new Tally(),
    graph: new Tally(),
    landing: new Tally(),
    durability: new Tally(),
  };
  /**
   * Faults beyond a cancellation, by backend: a worker process killed (SIGKILL) or drained on SIGTERM mid-run, a
   * run drained in process (RunControl), a cancelled run whose stream stays open; and where each landed.
   */
  readonly faults = {
    kill: new Tally(),
    sigterm: new Tally(),
    drain: new Tally(),
    neverCloses: new Tally(),
    landing: new Tally(),
  };
  /** The figures that must stay at zero, and what else is counted next to them. */
  readonly zero = { rejected: 0, lost: 0, answeredTwice: 0, controlDiffs: 0, unloadable: 0 };
  providerRejections = 0;
  clientRefusals = 0;
  /** Observed, not counted as a sanitizer failure: what LangGraph, a provider or a server does. */
  readonly observed = new Tally();
  repairedThreads = new Set<string>();
  /** Threads whose runs race by design (a cancelled run that keeps writing): their rejections are reported apart. */
  raceThreads = new Set<string>();
  cancelledThreads = 0;
  cancelledThreadsRepaired = 0;
  realResultsChecked = 0;
  controlReads = 0;
  /** Checkpoints loaded raw after a fault, each of which must load. */
  checkpointsLoaded = 0;
  readonly failures: Failure[] = [];
  readonly latency = new Map<string, { sanitized: LatencySeries; raw: LatencySeries }>();
  readonly samples: Sample[] = [];
  mapMax: MapSizes = { decisions: 0, running: 0, ended: 0 };

  get totalCancellations(): number {
    return this.cancellations.backend.total;
  }

  latencyOf(phase: string) {
    let series = this.latency.get(phase);
    if (!series) this.latency.set(phase, (series = { sanitized: new LatencySeries(), raw: new LatencySeries() }));
    return series;
  }

  cancelled(dims: { backend: string; client: string; graph: string; landing: string; durability: string }): void {
    for (const key of Object.keys(this.cancellations) as (keyof typeof this.cancellations)[]) {
      this.cancellations[key].add(dims[key]);
    }
  }

  /** Counts a fault of `kind` on `backend`, and where in the run it landed. */
  faulted(kind: Fault, backend: string, landing: string): void {
    this.faults[kind].add(backend);
    this.faults.landing.add(`${FAULT_LABELS[kind]}: ${landing}`);
  }

  /** Called with each failure as it happens (the soak prints it at once, with its replay command). */
  onFailure: (failure: Failure) => void = () => {};

  fail(figure: keyof Metrics["zero"], thread: string, detail: string): void {
    this.zero[figure]++;
    this.example(figure, thread, detail);
    this.onFailure({ figure, thread, detail });
  }

  /** Keeps `detail` (and the thread's trace, when kept) as an example of `figure`, unless it has enough. */
  example(figure: string, thread: string, detail: string): void {
    if (this.failures.filter((f) => f.figure === figure).length < EXAMPLES_PER_FIGURE) {
      const trace = this.traces.of(thread);
      this.failures.push({ figure, thread, detail: detail.slice(0, 1200) + (trace ? `\n${trace}` : "") });
    }
  }

  /** The outage phase's figures, by backend. */
  readonly outages: OutageFigures[] = [];

  get failed(): boolean {
    const outageFailed = this.outages.some((figures) => OUTAGE_FIGURES.some((figure) => figures[figure] > 0));
    return outageFailed || Object.values(this.zero).some((n) => n > 0);
  }

  /** Takes a sample: the heap after a full GC (when exposed), the maps, and the latency of the window. */
  sample(phase: string, maps: MapSizes): Sample {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const series = this.latencyOf(phase);
    const window = (s: LatencySeries): [number, number] => {
      const h = s.window.drain();
      return [h.quantile(0.5), h.quantile(0.99)];
    };
    for (const key of Object.keys(maps) as (keyof MapSizes)[]) this.mapMax[key] = Math.max(this.mapMax[key], maps[key]);
    const sample: Sample = {
      t: (performance.now() - this.started) / 1000,
      phase,
      heapMb: process.memoryUsage().heapUsed / 2 ** 20,
      cancellations: this.totalCancellations,
      maps,
      sanitized: window(series.sanitized),
      raw: window(series.raw),
    };
    this.samples.push(sample);
    return sample;
  }
}

/** Heap growth between the first and the last quarter of `samples` (means of each quarter, in MB). */
export function heapGrowth(samples: readonly Sample[]): { first: number; last: number; growth: number } | undefined {
  if (samples.length < 4) return undefined;
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const mean = (xs: readonly Sample[]) => xs.reduce((sum, s) => sum + s.heapMb, 0) / xs.length;
  const first = mean(samples.slice(0, quarter));
  const last = mean(samples.slice(-quarter));
  return { first, last, growth: last - first };
}

/**
 * {@link heapGrowth} within each phase (a backend, the Agent Server): each loads its own clients and pools, so the
 * heap steps between phases; what the wrapper would leak shows as growth inside one.
 */
export function heapGrowthByPhase(samples: readonly Sample[]): { phase: string; growth: number | undefined }[] {
  const phases = new Map<string, Sample[]>();
  for (const sample of samples) phases.set(sample.phase, [...(phases.get(sample.phase) ?? []), sample]);
  return [...phases].map(([phase, of]) => ({ phase, growth: heapGrowth(of)?.growth }));
}
