// A command's progress on stderr: on a terminal, one line redrawn in place; elsewhere (a CI log, a file), a line when
// the scan starts and every few seconds, so a log shows a long run moving without filling up.

/** How often a line is drawn, in milliseconds. */
const EVERY = { terminal: 200, log: 5000 } as const;

/** What every command's progress says first. */
export interface ScanProgress {
  scanned: number;
  /** `undefined` when the store cannot tell cheaply. */
  total?: number;
  /** Estimated (a shard's share). */
  estimated?: boolean;
}

export const number = (n: number) => n.toLocaleString("en-US");

function duration(seconds: number): string {
  const s = Math.round(seconds);
  const [h, m] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60)];
  const mmss = `${m}:${String(s % 60).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss.padStart(5, "0")}` : mmss;
}

/** One progress line: scanned of total, rate, time left, then what the command found so far (`found`). */
export function progressLine(p: ScanProgress, elapsedMs: number, found: string): string {
  const rate = p.scanned / Math.max(elapsedMs / 1000, 0.001);
  const parts = [`scanned ${number(p.scanned)}`];
  if (p.total !== undefined && p.total > 0) {
    parts[0] += ` of ${p.estimated ? "~" : ""}${number(p.total)} (${Math.min(100, Math.floor((100 * p.scanned) / p.total))}%)`;
  }
  parts.push(`${number(Math.round(rate))}/s`);
  if (p.total !== undefined && rate > 0) parts.push(`ETA ${duration(Math.max(p.total - p.scanned, 0) / rate)}`);
  parts.push(found);
  return parts.join(", ");
}

/** Draws `command`'s progress on `write` (stderr): in place on a terminal, a line at a time elsewhere. */
export function progressReporter<P extends ScanProgress>(
  write: (text: string) => void,
  terminal: boolean,
  command: string,
  found: (progress: P) => string,
) {
  const started = Date.now();
  let drawn: number | undefined;
  return {
    update(progress: P): void {
      const now = Date.now();
      if (drawn !== undefined && now - drawn < (terminal ? EVERY.terminal : EVERY.log)) return;
      drawn = now;
      const line = progressLine(progress, now - started, found(progress));
      write(terminal ? `\r\x1b[K${line}` : `${command}: ${line}`);
    },
    /** Clears the line a terminal shows, before the report. */
    end(): void {
      if (terminal && drawn !== undefined) write("\r\x1b[K");
    },
  };
}
