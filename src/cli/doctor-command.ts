/** `doctor`: finds broken threads in a store, and with `--fix` stores their repair. */
import { parseArgs } from "node:util";
import {
  InvalidOptionError,
  PATTERNS,
  repairMessages,
  type MarkerOption,
  type PatternId,
  type ProviderChoice,
  type RepairSettings,
} from "../index.js";
import {
  COMMON_OPTIONS,
  SIGNAL_EXIT,
  withUsageErrors,
  printable,
  shellArgument,
  stoppedIn,
  storeKind,
  table,
  type CliIO,
  type OpenFor,
} from "./command-line.js";
import { runDoctor, type DoctorProgress, type DoctorReport } from "./doctor.js";
import { progressReporter, number } from "./progress.js";
import { parseShard } from "./shard.js";
import { DoctorUsageError, type ThreadRef } from "./store.js";

const OPTIONS = {
  ...COMMON_OPTIONS,
  namespace: { type: "string" },
  limit: { type: "string" },
  shard: { type: "string" },
  "after-namespace": { type: "string" },
  fix: { type: "boolean", default: false },
  "fail-on-paused": { type: "boolean", default: false },
  markers: { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  "no-store": { type: "boolean", default: false },
} as const;

function parse(argv: string[]) {
  const { values } = withUsageErrors(() => parseArgs({ args: argv, options: OPTIONS, strict: true }));
  const store = storeKind(values);
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit <= 0)
      throw new DoctorUsageError(`--limit takes a positive whole number, got ${values.limit}`);
  }
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const after = resumePoint(values);
  const markers = values.markers as MarkerOption | undefined;
  const provider = values.provider as ProviderChoice | undefined;
  const model = values.model;
  if (model !== undefined && model.trim() === "") throw new DoctorUsageError("--model takes the name of a model");
  checkRepairFlags({ markers, provider });
  return { store, values, limit, shard, after, markers, provider, model };
}

function resumePoint(values: { after?: string; "after-namespace"?: string; resume?: string }): ThreadRef | undefined {
  if (values["after-namespace"] !== undefined && values.after === undefined)
    throw new DoctorUsageError("--after-namespace goes with --after");
  if (values.resume !== undefined && values.after !== undefined)
    throw new DoctorUsageError("give --after or --resume, not both");
  if (values.after !== undefined) return { threadId: values.after, checkpointNs: values["after-namespace"] ?? "" };
  if (values.resume === undefined) return undefined;
  return stoppedIn<NonNullable<DoctorReport["stopped"]>>(values.resume).after ?? undefined;
}

/** A usage error naming the flag and the values it takes. */
function checkRepairFlags(flags: RepairSettings): void {
  try {
    repairMessages([], flags);
  } catch (error) {
    if (!(error instanceof InvalidOptionError) || error.allowed === undefined) throw error;
    const allowed = error.allowed.map(String);
    const takes = allowed.length === 2 ? allowed.join(" or ") : allowed.join(", ");
    throw new DoctorUsageError(`--${error.option} takes ${takes}, got ${String(error.value)}`);
  }
}

const count = (patterns: Partial<Record<PatternId, number>>) =>
  Object.entries(patterns)
    .map(([kind, n]) => `${kind}×${n}`)
    .join(" ");

function continuation({ signal, after }: NonNullable<DoctorReport["stopped"]>, json: boolean): string {
  const flags = after
    ? `--after ${shellArgument(after.threadId)}${after.checkpointNs ? ` --after-namespace ${shellArgument(after.checkpointNs)}` : ""}`
    : "no --after (no thread was finished)";
  const resume = json ? " (or --resume with this report saved to a file)" : "";
  return `Stopped by ${signal}; the fixes under way were finished. To continue, run the same command with ${flags}${resume}.`;
}

function formatReport(report: DoctorReport, fix: boolean): string {
  const { paused } = report;
  const lines = [
    `Scanned ${report.scanned} thread namespaces in ${report.store}: ${report.broken} broken${paused ? `, ${paused} of them paused at an interrupt (never touched)` : ""}${fix ? `, ${report.fixed} fixed` : ""}.`,
  ];
  if (report.stopped) lines.push(continuation(report.stopped, false));
  if (report.broken === 0) return lines.join("\n");
  const kinds = (Object.keys(PATTERNS) as PatternId[]).filter((k) => report.patterns[k]);
  lines.push(
    "",
    table([
      ["pattern", "threads", "repairs", "shape"],
      ...kinds.map((k) => [k, String(report.threadsByPattern[k]), String(report.patterns[k]), PATTERNS[k].shape]),
    ]),
  );
  const action = {
    "would-fix": "would fix (run with --fix)",
    fixed: "fixed",
    "paused-at-interrupt": "paused at interrupt: left alone",
  } as const;
  lines.push(
    "",
    table([
      ["thread", "namespace", "repairs", "pending tasks", "action"],
      ...report.threads.map((t) => [
        printable(t.threadId),
        printable(t.checkpointNs),
        count(t.patterns),
        t.pendingTasks ? "yes" : "no",
        action[t.action],
      ]),
    ]),
  );
  if (!fix && report.threads.some((t) => t.action === "would-fix")) {
    lines.push(
      "",
      'Dry run: --fix would store each repair as a new checkpoint (source "update") after the one shown, leaving history intact.',
    );
  }
  return lines.join("\n");
}

/** Runs `doctor` with `argv` (after its name); returns the exit code. */
export async function doctorCommand(argv: string[], io: CliIO, open: OpenFor): Promise<number> {
  const args = parse(argv);
  const store = await open(args.store, args.values, args.values.fix);
  const progress = args.values.quiet
    ? undefined
    : progressReporter(
        io.stderr,
        io.isTTY,
        "doctor",
        (p: DoctorProgress) => `${number(p.broken)} broken${p.fixed > 0 ? `, ${number(p.fixed)} fixed` : ""}`,
      );
  const report = await runDoctor(store, {
    fix: args.values.fix,
    threadId: args.values.thread,
    checkpointNs: args.values.namespace,
    after: args.after,
    shard: args.shard,
    limit: args.limit,
    markers: args.markers,
    provider: args.provider,
    model: args.model,
    ...(args.values["no-store"] ? { store: false } : {}),
    signal: io.signal,
    onProgress: progress?.update,
  });
  progress?.end();
  io.stdout(
    args.values.json
      ? JSON.stringify({ ...report, fix: args.values.fix }, null, 2)
      : formatReport(report, args.values.fix),
  );
  if (report.stopped) {
    if (args.values.json) io.stderr(continuation(report.stopped, true));
    return SIGNAL_EXIT[report.stopped.signal] ?? 130;
  }
  const left = report.broken - report.fixed - report.paused;
  return left > 0 || (args.values["fail-on-paused"] && report.paused > 0) ? 1 : 0;
}
