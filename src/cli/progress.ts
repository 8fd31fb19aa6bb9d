/**
 * The doctor's progress on stderr: on a terminal, one line redrawn in place; elsewhere (a CI log, a file), a
 * line when the scan starts and every few seconds, so a log shows a long run moving without filling up.
 */
import type { DoctorProgress } from "./doctor.js";

/** How often a line is drawn, in milliseconds. */
const EVERY = { terminal: 200, log: 5000 } as const;

const number = (n: number) => n.toLocaleString("en-US");

function duration(seconds: number): string {
  const s = Math.round(seconds);
  const [h, m] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60)];
  const mmss = `${m}:${String(s % 60).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss.padStart(5, "0")}` : mmss;
}

/** One progress line: scanned of total, rate, time left, broken (and fixed) so far. */
export function progressLine(p: DoctorProgress, elapsedMs: number): string {
  const rate = p.scanned / Math.max(elapsedMs / 1000, 0.001);
  const parts = [`scanned ${number(p.scanned)}`];
  if (p.total !== undefined && p.total > 0) {
    parts[0] += ` of ${p.estimated ? "~" : ""}${number(p.total)} (${Math.min(100, Math.floor((100 * p.scanned) / p.total))}%)`;
  }
  parts.push(`${number(Math.round(rate))}/s`);
  if (p.total !== undefined && rate > 0) parts.push(`ETA ${duration(Math.max(p.total - p.scanned, 0) / rate)}`);
  parts.push(`${number(p.broken)} broken${p.fixed > 0 ? `, ${number(p.fixed)} fixed` : ""}`);
  return parts.join(", ");
}

/** Draws progress on `write` (stderr): in place on a terminal, a line at a time elsewhere. */
export function progressReporter(write: (text: string) => void, terminal: boolean) {
  const started = Date.now();
  let drawn: number | undefined;
  return {
    update(progress: DoctorProgress): void {
      const now = Date.now();
      if (drawn !== undefined && now - drawn < (terminal ? EVERY.terminal : EVERY.log)) return;
      drawn = now;
      const line = progressLine(progress, now - started);
      write(terminal ? `\r\x1b[K${line}` : `doctor: ${line}`);
    },
    /** Clears the line a terminal shows, before the report. */
    end(): void {
      if (terminal && drawn !== undefined) write("\r\x1b[K");
    },
  };
}
