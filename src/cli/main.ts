#!/usr/bin/env node
// Exit codes: 0 nothing left to fix, 1 broken threads left (or paused, with --fail-on-paused), 2 usage or store
// error, 128 + the signal's number when a signal stopped the scan.
import { readFileSync, realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import {
  InvalidOptionError,
  PATTERNS,
  repairMessages,
  type MarkerOption,
  type PatternId,
  type ProviderRules,
  type RepairRules,
} from "../index.js";
import { runDoctor, type DoctorReport } from "./doctor.js";
import { progressReporter } from "./progress.js";
import { parseShard } from "./shard.js";
import { DoctorStoreError, DoctorUsageError, type OpenStore, type ThreadRef } from "./store.js";
import { openPostgres } from "./stores/postgres.js";
import { openRedis } from "./stores/redis.js";
import { openSqlite } from "./stores/sqlite.js";

const USAGE = `usage: langgraph-checkpoint-sanitizer doctor (--sqlite FILE | --postgres URL [--schema NAME] | --redis URL [--prefix PREFIX])
         [--thread ID] [--namespace NS] [--limit N] [--shard K/N] [--after ID [--after-namespace NS] | --resume FILE]
         [--fix] [--json] [--quiet] [--fail-on-paused] [--markers en|ko] [--provider NAME] [--model NAME] [--no-store]`;

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Progress is redrawn in place on a terminal, printed every few seconds elsewhere. */
  isTTY: boolean;
  /** The bin aborts it on SIGINT and SIGTERM. */
  signal?: AbortSignal;
}

/** As shells report it. */
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

const OPTIONS = {
  sqlite: { type: "string" },
  postgres: { type: "string" },
  schema: { type: "string" },
  redis: { type: "string" },
  prefix: { type: "string" },
  thread: { type: "string" },
  namespace: { type: "string" },
  limit: { type: "string" },
  shard: { type: "string" },
  after: { type: "string" },
  "after-namespace": { type: "string" },
  resume: { type: "string" },
  fix: { type: "boolean", default: false },
  json: { type: "boolean", default: false },
  quiet: { type: "boolean", default: false },
  "fail-on-paused": { type: "boolean", default: false },
  markers: { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  "no-store": { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new DoctorUsageError((error as Error).message.split("\n")[0]!.replace(/\. To specify a positional.*$/, ""));
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true as const };
  if (positionals[0] !== "doctor" || positionals.length > 1)
    throw new DoctorUsageError(
      positionals.length === 0 ? "missing command: doctor" : `unknown command: ${positionals.join(" ")}`,
    );
  const stores = (["sqlite", "postgres", "redis"] as const).filter((s) => values[s] !== undefined);
  if (stores.length !== 1) throw new DoctorUsageError("give exactly one of --sqlite FILE, --postgres URL, --redis URL");
  if (values.schema !== undefined && !values.postgres) throw new DoctorUsageError("--schema goes with --postgres");
  if (values.prefix !== undefined && !values.redis) throw new DoctorUsageError("--prefix goes with --redis");
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit <= 0)
      throw new DoctorUsageError(`--limit takes a positive whole number, got ${values.limit}`);
  }
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const after = resumePoint(values);
  const markers = values.markers as MarkerOption | undefined;
  const provider = values.provider as ProviderRules | undefined;
  const model = values.model;
  if (model !== undefined && model.trim() === "") throw new DoctorUsageError("--model takes the name of a model");
  checkRepairFlags({ markers, provider });
  return { help: false as const, store: stores[0]!, values, limit, shard, after, markers, provider, model };
}

function resumePoint(values: { after?: string; "after-namespace"?: string; resume?: string }): ThreadRef | undefined {
  if (values["after-namespace"] !== undefined && values.after === undefined)
    throw new DoctorUsageError("--after-namespace goes with --after");
  if (values.resume !== undefined && values.after !== undefined)
    throw new DoctorUsageError("give --after or --resume, not both");
  if (values.after !== undefined) return { threadId: values.after, checkpointNs: values["after-namespace"] ?? "" };
  if (values.resume === undefined) return undefined;
  let report: Partial<DoctorReport>;
  try {
    report = JSON.parse(readFileSync(values.resume, "utf8")) as Partial<DoctorReport>;
  } catch (error) {
    throw new DoctorUsageError(`--resume cannot read ${values.resume}: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof report.stopped !== "object" || report.stopped === null)
    throw new DoctorUsageError(`--resume takes the --json report of a stopped run; ${values.resume} is not one`);
  return report.stopped.after ?? undefined;
}

/** A usage error naming the flag and the values it takes. */
function checkRepairFlags(flags: RepairRules): void {
  try {
    repairMessages([], flags);
  } catch (error) {
    if (!(error instanceof InvalidOptionError) || error.allowed === undefined) throw error;
    const allowed = error.allowed.map(String);
    const takes = allowed.length === 2 ? allowed.join(" or ") : allowed.join(", ");
    throw new DoctorUsageError(`--${error.option} takes ${takes}, got ${String(error.value)}`);
  }
}

async function open(store: "sqlite" | "postgres" | "redis", values: Record<string, unknown>): Promise<OpenStore> {
  if (store === "sqlite") return openSqlite(values.sqlite as string, { writable: values.fix === true });
  if (store === "postgres") return openPostgres(values.postgres as string, values.schema as string | undefined);
  return openRedis(values.redis as string, values.prefix as string | undefined);
}

const count = (patterns: Partial<Record<PatternId, number>>) =>
  Object.entries(patterns)
    .map(([kind, n]) => `${kind}×${n}`)
    .join(" ");

/** Characters that fake a line or hide text on a terminal: controls, zero-width and bidi marks, lone surrogates. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const printable = (id: string): string =>
  JSON.stringify(id).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  "))
    .join("\n");
}

const shellArgument = (id: string): string =>
  id.search(UNSAFE) === -1 ? `'${id.replaceAll("'", "'\\''")}'` : printable(id);

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

/** Returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  let store: OpenStore | undefined;
  try {
    const args = parse(argv);
    if (args.help) {
      io.stdout(USAGE);
      return 0;
    }
    store = await open(args.store, args.values);
    const progress = args.values.quiet ? undefined : progressReporter(io.stderr, io.isTTY);
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
  } catch (error) {
    if (error instanceof DoctorUsageError) io.stderr(`langgraph-checkpoint-sanitizer: ${error.message}\n${USAGE}`);
    else if (error instanceof DoctorStoreError) io.stderr(`langgraph-checkpoint-sanitizer: ${error.message}`);
    else io.stderr(`langgraph-checkpoint-sanitizer: ${(error as Error).name}: ${(error as Error).message}`);
    return 2;
  } finally {
    await store?.close().catch(() => {});
  }
}

// Run as the bin (npm links it, hence realpath), not when imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  // Batches awaiting their store outlive young collections, so the old generation fills with garbage up to the limit
  // V8 sets after each full collection, up to 4× the live heap: at 1.5×, peak memory no longer grows with the store.
  setFlagsFromString("--heap-growing-percent=50");
  // The first SIGINT or SIGTERM stops after the batches in flight; a second one ends the process.
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    stop.abort(signal);
  };
  process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
  const code = await main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(text.startsWith("\r") ? text : `${text}\n`),
    isTTY: Boolean(process.stderr.isTTY),
    signal: stop.signal,
  });
  process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
  process.exitCode = code;
}
