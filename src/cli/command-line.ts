/** What the commands share: the store flags, the exit codes, the stopped run's report, and ids printed safely. */
import { readFileSync } from "node:fs";
import type { ParseArgsConfig } from "node:util";
import { DoctorStoreError, DoctorUsageError, type OpenStore } from "./store.js";
import { openPostgres } from "./stores/postgres.js";
import { openRedis } from "./stores/redis.js";
import { openSqlite } from "./stores/sqlite.js";

const STORE_FLAGS = "(--sqlite FILE | --postgres URL [--schema NAME] | --redis URL [--prefix PREFIX])";

export const USAGE = `usage: langgraph-checkpoint-sanitizer doctor ${STORE_FLAGS}
         [--thread ID] [--namespace NS] [--limit N] [--shard K/N] [--after ID [--after-namespace NS] | --resume FILE]
         [--fix] [--json] [--quiet] [--fail-on-paused] [--markers en|ko] [--provider NAME] [--model NAME] [--no-store]
       langgraph-checkpoint-sanitizer prune ${STORE_FLAGS}
         (--keep-last N | --older-than AGE | both) [--thread ID] [--after ID | --resume FILE] [--apply] [--json] [--quiet]`;

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Progress is redrawn in place on a terminal, printed every few seconds elsewhere. */
  isTTY: boolean;
  /** The bin aborts it on SIGINT and SIGTERM. */
  signal?: AbortSignal;
}

/** As shells report it. */
export const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** Every command's: the store, the output, where to continue. */
export const COMMON_OPTIONS = {
  sqlite: { type: "string" },
  postgres: { type: "string" },
  schema: { type: "string" },
  redis: { type: "string" },
  prefix: { type: "string" },
  thread: { type: "string" },
  after: { type: "string" },
  resume: { type: "string" },
  json: { type: "boolean", default: false },
  quiet: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const satisfies ParseArgsConfig["options"];

export type StoreKind = "sqlite" | "postgres" | "redis";

/** `parse()` (Node's `parseArgs` of a command's flags), its errors turned into usage errors naming what is wrong. */
export function withUsageErrors<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new DoctorUsageError((error as Error).message.split("\n")[0]!.replace(/\. To specify a positional.*$/, ""));
  }
}

/** Exactly one store, with the flags that go with it. */
export function storeKind(values: { schema?: string; prefix?: string } & Partial<Record<StoreKind, string>>) {
  const stores = (["sqlite", "postgres", "redis"] as const).filter((s) => values[s] !== undefined);
  if (stores.length !== 1) throw new DoctorUsageError("give exactly one of --sqlite FILE, --postgres URL, --redis URL");
  if (values.schema !== undefined && !values.postgres) throw new DoctorUsageError("--schema goes with --postgres");
  if (values.prefix !== undefined && !values.redis) throw new DoctorUsageError("--prefix goes with --redis");
  return stores[0]!;
}

/** How a command opens its store, which `main` closes when the command ends. */
export type OpenFor = (kind: StoreKind, values: Record<string, unknown>, writable: boolean) => Promise<OpenStore>;

export function openStore(kind: StoreKind, values: Record<string, unknown>, writable: boolean): Promise<OpenStore> {
  if (kind === "sqlite") return openSqlite(values.sqlite as string, { writable });
  if (kind === "postgres") return openPostgres(values.postgres as string, values.schema as string | undefined);
  return openRedis(values.redis as string, values.prefix as string | undefined);
}

/** The `stopped` of the `--json` report of a stopped run, saved in `file`. */
export function stoppedIn<T>(file: string): T {
  let report: { stopped?: unknown };
  try {
    report = JSON.parse(readFileSync(file, "utf8")) as { stopped?: unknown };
  } catch (error) {
    throw new DoctorUsageError(`--resume cannot read ${file}: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof report.stopped !== "object" || report.stopped === null)
    throw new DoctorUsageError(`--resume takes the --json report of a stopped run; ${file} is not one`);
  return report.stopped as T;
}

/** Characters that fake a line or hide text on a terminal: controls, zero-width and bidi marks, lone surrogates. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const printable = (id: string): string =>
  JSON.stringify(id).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

export const shellArgument = (id: string): string =>
  id.search(UNSAFE) === -1 ? `'${id.replaceAll("'", "'\\''")}'` : printable(id);

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  "))
    .join("\n");
}

/** The one line an error prints, with the usage when the command line is at fault; the exit code is 2. */
export function reportError(error: unknown, io: CliIO): number {
  if (error instanceof DoctorUsageError) io.stderr(`langgraph-checkpoint-sanitizer: ${error.message}\n${USAGE}`);
  else if (error instanceof DoctorStoreError) io.stderr(`langgraph-checkpoint-sanitizer: ${error.message}`);
  else io.stderr(`langgraph-checkpoint-sanitizer: ${(error as Error).name}: ${(error as Error).message}`);
  return 2;
}
