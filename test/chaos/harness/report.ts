/**
 * What a chaos run prints and publishes: the table of the figures, where the cancellations landed, what
 * was observed of LangGraph, the providers and the server, and each failure with the command that replays it.
 */
import { FAULT_LABELS, FAULTS, heapGrowth, heapGrowthByPhase, type Metrics, type Tally } from "./metrics.js";
import type { ChaosResult } from "./chaos.js";
import { BACKEND_LABELS } from "./backends.js";
import { replayCommand, replayOf } from "./options.js";

const ms = (n: number) => (Number.isNaN(n) ? "–" : n < 1 ? n.toFixed(3) : n.toFixed(2));
const count = (n: number) => n.toLocaleString("en-US");

/** The figures of the issue as a Markdown table, with their goals. */
export function figuresTable({ metrics, seconds }: ChaosResult): string {
  const { zero } = metrics;
  const heap = heapGrowth(metrics.samples);
  const mb = (n: number) => `${n >= 0 ? "+" : ""}${n.toFixed(1)} MB`;
  const byPhase = heapGrowthByPhase(metrics.samples)
    .filter(({ growth }) => growth !== undefined)
    .map(({ phase, growth }) => `${phase} ${mb(growth!)}`)
    .join(", ");
  const threads = [...metrics.threads.counts].map(([phase, n]) => `${phase} ${count(n)}`).join(", ");
  const rows: [string, string, string][] = [
    ["threads", `${count(metrics.threads.total)} (${threads}); ${count(metrics.controlThreads)} control`, "—"],
    ["runs", count(metrics.turns), "—"],
    ["cancellations", count(metrics.totalCancellations), "≥ 10,000 in a full soak"],
    [
      "faults beyond a cancellation",
      FAULTS.map((kind) => `${FAULT_LABELS[kind]} ${count(metrics.faults[kind].total)}`).join(", "),
      "≥ 1,000 kills in a full soak",
    ],
    ["next turns rejected", count(zero.rejected), "0"],
    ["real results lost", `${count(zero.lost)} (of ${count(metrics.realResultsChecked)} checked)`, "0"],
    ["calls answered twice", count(zero.answeredTwice), "0"],
    ["control diffs", `${count(zero.controlDiffs)} (of ${count(metrics.controlReads)} reads compared)`, "0"],
    [
      "checkpoints a raw read cannot load, after a fault",
      `${count(zero.unloadable)} (of ${count(metrics.checkpointsLoaded)} loaded)`,
      "0",
    ],
    [
      "heap growth (after a full GC, first vs last quarter)",
      heap
        ? `within each phase: ${byPhase || "too short to tell"}; over the run ${heap.first.toFixed(0)} → ` +
          `${heap.last.toFixed(0)} MB (each phase loads its own clients); the wrapper's maps at most ` +
          `${JSON.stringify(metrics.mapMax)}`
        : "too short to tell",
      "bounded",
    ],
    ["duration", `${(seconds / 60).toFixed(1)} min`, "—"],
  ];
  return table(["figure", "measured", "goal"], rows);
}

/** `getTuple` latency per backend under concurrency: through the sanitizer and the saver's own. */
export function latencyTable(metrics: Metrics): string {
  const rows: string[][] = [];
  for (const [phase, series] of metrics.latency) {
    const { sanitized, raw } = { sanitized: series.sanitized.total, raw: series.raw.total };
    if (sanitized.count === 0 && raw.count === 0) continue;
    rows.push([
      phase,
      count(sanitized.count),
      `${ms(sanitized.quantile(0.5))} / ${ms(sanitized.quantile(0.99))}`,
      raw.count > 0 ? `${ms(raw.quantile(0.5))} / ${ms(raw.quantile(0.99))}` : "–",
    ]);
  }
  return table(["backend", "reads", "sanitized p50 / p99 (ms)", "saver's own p50 / p99 (ms)"], rows);
}

/** The faults beyond a cancellation, by backend (phase). */
export function faultsTable(metrics: Metrics): string {
  const phases = [...new Set(FAULTS.flatMap((kind) => [...metrics.faults[kind].counts.keys()]))];
  const rows = phases.map((phase) => [phase, ...FAULTS.map((kind) => count(metrics.faults[kind].get(phase)))]);
  return table(["backend", ...FAULTS.map((kind) => FAULT_LABELS[kind])], rows);
}

/** Cancellations by one dimension, most first. */
export function tallyTable(name: string, tally: Tally, what = "cancellations"): string {
  const rows = [...tally.counts].sort(([, a], [, b]) => b - a).map(([key, n]) => [key, count(n)]);
  return table([name, what], rows);
}

/** The outage phase by backend: the app process lived through every outage, and the last four figures must be zero. */
export function outagesTable(metrics: Metrics): string {
  const rows = metrics.outages.map((f) => [
    f.backend,
    count(f.outages),
    `${count(f.turns)} (${count(f.failedTurns)} failed cleanly)`,
    "yes",
    count(f.lost),
    count(f.unloadable),
    count(f.rejected),
    `${count(f.landedAfterFailure)} (of ${count(f.failedWrites)} failed)`,
  ]);
  return table(
    [
      "outage",
      "outages",
      "turns an outage hit",
      "app process alive",
      "checkpoints lost",
      "unloadable",
      "turns a provider rejected",
      "writes reported failed that landed",
    ],
    rows,
  );
}

/** What was seen of LangGraph, the providers and the server: counted, never a sanitizer failure. */
export function observedTable(metrics: Metrics): string {
  const rows = [...metrics.observed.counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => [key, count(n)]);
  return table(["observed", "times"], rows);
}

/** The whole report, as printed at the end of a run. */
export function report(result: ChaosResult): string {
  const { metrics, options } = result;
  const parts = [
    `seed ${options.seed}: ${result.backends.map((b) => BACKEND_LABELS[b]).join(", ") || "no in-process backend"}` +
      `${options.server ? " and the Agent Server" : ""}`,
    figuresTable(result),
    latencyTable(metrics),
    tallyTable("where the cancellation landed", metrics.cancellations.landing),
    faultsTable(metrics),
    tallyTable("fault: where it landed", metrics.faults.landing, "faults"),
    ...(metrics.outages.length > 0 ? [outagesTable(metrics)] : []),
    tallyTable("client", metrics.cancellations.client),
    tallyTable("graph", metrics.cancellations.graph),
    tallyTable("durability", metrics.cancellations.durability),
    observedTable(metrics),
  ];
  for (const failure of metrics.failures) {
    parts.push(
      `${failure.figure} on ${failure.thread}: ${failure.detail}\n  replay: ${replayOf(options, failure.thread)}`,
    );
  }
  const zero =
    metrics.outages.length > 0 ? "All five figures, and the outage figures, are zero." : "All five figures are zero.";
  parts.push(metrics.failed ? `FAILED. Replay the whole run: ${replayCommand(options)}` : zero);
  return parts.join("\n\n");
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
