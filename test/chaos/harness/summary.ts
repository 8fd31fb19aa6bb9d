/**
 * `--write-summary`: the figures of a run into docs/reliability.md (between its markers, the prose around them
 * stays) and its timeline into docs/images/reliability.svg: the heap, and `getTuple` p50 / p99 through the
 * sanitizer and the saver's own, sample by sample, with the phase (backend, then the Agent Server) marked.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ChaosResult } from "./chaos.js";
import type { Sample } from "./metrics.js";
import { faultsTable, figuresTable, latencyTable, observedTable, outagesTable, tallyTable } from "./report.js";
import { replayCommand } from "./options.js";

const DOC = fileURLToPath(new URL("../../../docs/reliability.md", import.meta.url));
const PLOT = fileURLToPath(new URL("../../../docs/images/reliability.svg", import.meta.url));
const BEGIN = "<!-- chaos figures: written by npm run chaos -- --write-summary -->";
const END = "<!-- end of chaos figures -->";

export function writeSummary(result: ChaosResult): void {
  const { metrics, options } = result;
  const figures = [
    `Measured with \`${replayCommand(options)}\` on Node ${process.versions.node.split(".")[0]}, ` +
      `${options.threads} threads in flight per backend, ${options.killThreads} per backend in worker processes ` +
      `in the kill phase, ${options.serverThreads} on the Agent Server.`,
    figuresTable(result),
    "`getTuple` under concurrency, over the whole run:",
    latencyTable(metrics),
    "![Heap and getTuple latency over the soak](images/reliability.svg)",
    "The faults beyond a cancellation, by backend, and where each landed:",
    faultsTable(metrics),
    tallyTable("fault: where it landed", metrics.faults.landing, "faults"),
    ...(metrics.outages.length > 0
      ? ["Servers restarted and failed over under running turns (the outage phase), by backend:", outagesTable(metrics)]
      : []),
    "Where the cancellations landed, and on what:",
    tallyTable("where the cancellation landed", metrics.cancellations.landing),
    tallyTable("backend", metrics.cancellations.backend),
    tallyTable("client", metrics.cancellations.client),
    tallyTable("graph", metrics.cancellations.graph),
    tallyTable("durability", metrics.cancellations.durability),
    "What the soak saw of LangGraph, the providers and the server (counted, not failures of the sanitizer):",
    observedTable(metrics),
  ].join("\n\n");
  const doc = readFileSync(DOC, "utf8");
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DOC} lost its markers: put back ${BEGIN} and ${END}`);
  writeFileSync(DOC, `${doc.slice(0, start + BEGIN.length)}\n\n${figures}\n\n${doc.slice(end)}`);
  writeFileSync(PLOT, plot(metrics.samples));
}

const WIDTH = 900;
const PANEL = 220;
const MARGIN = { left: 60, right: 20, top: 30, bottom: 40 };

/** Two panels over time: the heap (MB), and getTuple p50 / p99 (ms, log scale), sanitized and raw. */
export function plot(samples: readonly Sample[]): string {
  const t1 = Math.max(1, ...samples.map((s) => s.t));
  const x = (t: number) => MARGIN.left + (t / t1) * (WIDTH - MARGIN.left - MARGIN.right);
  const height = MARGIN.top + 2 * PANEL + 2 * MARGIN.bottom;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
  ];
  const panel = (
    top: number,
    title: string,
    lines: { label: string; color: string; dash?: string; y: (s: Sample) => number }[],
    log: boolean,
  ) => {
    const values = samples.flatMap((s) => lines.map((l) => l.y(s))).filter((v) => Number.isFinite(v) && v > 0);
    const lo = log ? Math.min(...values, 1) : 0;
    const hi = Math.max(...values, log ? 10 : 1) * 1.05;
    const scale = (v: number) => (log ? Math.log10(v / lo) / Math.log10(hi / lo) : v / hi);
    const y = (v: number) => top + PANEL - scale(v) * PANEL;
    out.push(`<text x="${MARGIN.left}" y="${top - 8}" font-weight="bold">${title}</text>`);
    out.push(
      `<line x1="${MARGIN.left}" y1="${top + PANEL}" x2="${WIDTH - MARGIN.right}" y2="${top + PANEL}" stroke="#999"/>`,
    );
    out.push(`<line x1="${MARGIN.left}" y1="${top}" x2="${MARGIN.left}" y2="${top + PANEL}" stroke="#999"/>`);
    const ticks = log ? logTicks(lo, hi) : [0, hi / 2, hi].map((v) => Math.round(v));
    for (const v of ticks) out.push(`<text x="${MARGIN.left - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`);
    lines.forEach((line, i) => {
      const points = samples.filter((s) => Number.isFinite(line.y(s)) && line.y(s) > 0);
      const path = points.map((s) => `${x(s.t).toFixed(1)},${y(line.y(s)).toFixed(1)}`).join(" ");
      out.push(
        `<polyline fill="none" stroke="${line.color}" stroke-width="1.5"${line.dash ? ` stroke-dasharray="${line.dash}"` : ""} points="${path}"/>`,
      );
      out.push(`<text x="${MARGIN.left + 12}" y="${top + 14 + 14 * i}" fill="${line.color}">${line.label}</text>`);
    });
  };
  panel(MARGIN.top, "Heap used after GC (MB)", [{ label: "heap", color: "#1f77b4", y: (s) => s.heapMb }], false);
  const top2 = MARGIN.top + PANEL + MARGIN.bottom;
  panel(
    top2,
    "getTuple latency per sample window (ms, log scale)",
    [
      { label: "sanitized p99", color: "#d62728", y: (s) => s.sanitized[1] },
      { label: "raw p99", color: "#d62728", dash: "4 3", y: (s) => s.raw[1] },
      { label: "sanitized p50", color: "#2ca02c", y: (s) => s.sanitized[0] },
      { label: "raw p50", color: "#2ca02c", dash: "4 3", y: (s) => s.raw[0] },
    ],
    true,
  );
  // The phases, marked where each begins, under both panels.
  let phase = "";
  for (const s of samples) {
    if (s.phase === phase) continue;
    phase = s.phase;
    out.push(
      `<line x1="${x(s.t)}" y1="${MARGIN.top}" x2="${x(s.t)}" y2="${top2 + PANEL}" stroke="#ccc" stroke-dasharray="2 2"/>`,
    );
    out.push(`<text x="${x(s.t) + 3}" y="${top2 + PANEL + 14}" fill="#555">${phase}</text>`);
  }
  out.push(
    `<text x="${WIDTH / 2}" y="${height - 6}" text-anchor="middle">seconds since the soak started (last: ${t1.toFixed(0)} s)</text>`,
  );
  out.push("</svg>");
  return out.join("\n") + "\n";
}

function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let v = 10 ** Math.floor(Math.log10(lo)); v <= hi; v *= 10) if (v >= lo) ticks.push(v);
  return ticks;
}
