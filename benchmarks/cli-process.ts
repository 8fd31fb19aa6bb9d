/** What the CLI benchmarks share: the built bin run as its own process, timed, and the figures' medians. */
import { execFile } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
/** The built bin, as `npx langgraph-checkpoint-sanitizer` runs it (the bench scripts build it first). */
const main = fileURLToPath(new URL("../dist/esm/cli/main.js", import.meta.url));

/**
 * One run of `command` as a process of its own: wall seconds and peak resident MB from `/usr/bin/time` (process
 * start and module loading included), and its `--json` report. Exit code 1 (work left) is a result, not a failure.
 */
export async function binRun<Report>(command: string, args: string[]) {
  const { stdout, stderr } = await run(
    "/usr/bin/time",
    ["-f", "%e %M", process.execPath, main, command, ...args, "--json", "--quiet"],
    { maxBuffer: 1 << 30 },
  ).catch((e: { stdout: string; stderr: string; code: number }) => (e.code === 1 ? e : Promise.reject(e)));
  const [seconds, kb] = stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  return { seconds: seconds!, mb: kb! / 1024, report: JSON.parse(stdout) as Report };
}

export async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await work();
  return [(performance.now() - start) / 1000, result];
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The 1-minute load average, as the tables show it. */
export const load = () => loadavg()[0]!.toFixed(1);
