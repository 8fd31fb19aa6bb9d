/** `prune`: removes old checkpoints from a store, keeping what reads need; a dry run unless `--apply`. */
import { parseArgs } from "node:util";
import { prune, type PruneProgress, type PruneReport, type PrunedThread } from "../index.js";
import { parseDuration } from "../retention/options.js";
import {
  COMMON_OPTIONS,
  SIGNAL_EXIT,
  withUsageErrors,
  shellArgument,
  stoppedIn,
  storeKind,
  type CliIO,
  type OpenFor,
} from "./command-line.js";
import { number, progressReporter } from "./progress.js";
import { DoctorUsageError } from "./store.js";

const OPTIONS = {
  ...COMMON_OPTIONS,
  "keep-last": { type: "string" },
  "older-than": { type: "string" },
  apply: { type: "boolean", default: false },
} as const;

function parse(argv: string[]) {
  const { values } = withUsageErrors(() => parseArgs({ args: argv, options: OPTIONS, strict: true }));
  const store = storeKind(values);
  const keepLast = values["keep-last"] === undefined ? undefined : Number(values["keep-last"]);
  if (keepLast !== undefined && !(Number.isInteger(keepLast) && keepLast > 0))
    throw new DoctorUsageError(`--keep-last takes a positive whole number, got ${values["keep-last"]}`);
  const age = values["older-than"];
  const olderThan = age === undefined ? undefined : parseDuration(age);
  if (age !== undefined && olderThan === undefined)
    throw new DoctorUsageError(`--older-than takes an age such as 30d, 12h, 90m or 2w, got ${age}`);
  if (keepLast === undefined && olderThan === undefined)
    throw new DoctorUsageError("give --keep-last N, --older-than AGE or both");
  if (values.resume !== undefined && values.after !== undefined)
    throw new DoctorUsageError("give --after or --resume, not both");
  const after =
    values.resume === undefined ? values.after : (stoppedIn<PruneReport["stopped"]>(values.resume)?.after ?? undefined);
  return { store, values, keepLast, olderThan, after };
}

const UNITS = ["bytes", "kB", "MB", "GB", "TB"];

function size(bytes: number): string {
  let unit = 0;
  for (let n = bytes; n >= 1000 && unit < UNITS.length - 1; n /= 1000) unit++;
  return unit === 0 ? `${bytes} bytes` : `${(bytes / 1000 ** unit).toFixed(1)} ${UNITS[unit]}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;

function policy({ keepLast, olderThan }: PruneReport, age: string | undefined): string {
  const newest = (keepLast ?? 1) === 1 ? "the newest checkpoint" : `the newest ${plural(keepLast!, "checkpoint")}`;
  return `keeping ${newest} of each thread namespace${olderThan === undefined ? "" : ` and those newer than ${age}`}`;
}

function continuation({ signal, after }: NonNullable<PruneReport["stopped"]>, json: boolean): string {
  const flags = after === null ? "no --after (no thread was finished)" : `--after ${shellArgument(after)}`;
  const resume = json ? " (or --resume with this report saved to a file)" : "";
  return `Stopped by ${signal}; the threads under way were finished, each whole. To continue, run the same command with ${flags}${resume}.`;
}

function formatReport(report: PruneReport, store: string, age: string | undefined): string {
  const { removed } = report;
  const lines = [
    `Scanned ${plural(report.scanned, "thread")} in ${store}, ${policy(report, age)}: ${plural(report.pruned, "thread")} to prune.`,
  ];
  const what =
    `${plural(removed.checkpoints, "checkpoint")}, ${plural(removed.writes, "pending write")}, ` +
    `${plural(removed.blobs, "channel value")} and ${plural(removed.namespaces, "subgraph namespace")} (${size(removed.bytes)})`;
  const relinked =
    report.relinked > 0 ? `, ${number(report.relinked)} of them relinked to their nearest kept ancestor` : "";
  lines.push(
    `${report.dryRun ? "Would remove" : "Removed"} ${what}; ${plural(report.kept, "checkpoint")} kept${relinked}.`,
  );
  if (report.stopped) lines.push(continuation(report.stopped, false));
  if (report.dryRun && report.pruned > 0) lines.push("Dry run: run the same command with --apply to remove them.");
  return lines.join("\n");
}

/** The `--json` report, its threads printed as they come so memory stays flat: one JSON document in the end. */
function jsonReport(io: CliIO, head: Record<string, unknown>) {
  let opened = false;
  let held: string | undefined;
  const open = () => {
    if (opened) return;
    opened = true;
    io.stdout(`${JSON.stringify(head, null, 2).slice(0, -2)},\n  "threads": [`);
  };
  return {
    thread(thread: PrunedThread): void {
      open();
      if (held !== undefined) io.stdout(`${held},`);
      held = `    ${JSON.stringify(thread)}`;
    },
    end({ threads: _, store: __, ...totals }: PruneReport): void {
      open();
      if (held !== undefined) io.stdout(held);
      io.stdout(`  ],${JSON.stringify(totals, null, 2).slice(1)}`);
    },
  };
}

/** Runs `prune` with `argv` (after its name); returns the exit code. */
export async function pruneCommand(argv: string[], io: CliIO, open: OpenFor): Promise<number> {
  const { store: kind, values, keepLast, olderThan, after } = parse(argv);
  const store = await open(kind, values, values.apply);
  const json = values.json ? jsonReport(io, { store: store.description }) : undefined;
  const progress = values.quiet
    ? undefined
    : progressReporter(
        io.stderr,
        io.isTTY,
        "prune",
        (p: PruneProgress) => `${plural(p.pruned, "thread")} to prune, ${plural(p.checkpoints, "checkpoint")}`,
      );
  const report = await prune(store.saver, {
    keepLast,
    olderThan,
    threadId: values.thread,
    after,
    dryRun: !values.apply,
    signal: io.signal,
    onProgress: progress?.update,
    onThread: json?.thread,
  });
  progress?.end();
  if (json) json.end(report);
  else io.stdout(formatReport(report, store.description, values["older-than"]));
  if (report.stopped) {
    if (json) io.stderr(continuation(report.stopped, true));
    return SIGNAL_EXIT[report.stopped.signal] ?? 130;
  }
  return report.dryRun && report.pruned > 0 ? 1 : 0;
}
