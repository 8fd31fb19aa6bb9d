/**
 * The checkpoint stores the doctor can open, each with a way to list the
 * (thread, namespace) pairs it holds, a page at a time, so a store of any size
 * is scanned without holding it in memory.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { existsSync } from "node:fs";
import { redact } from "../redact.js";

/** One thread's checkpoint history in one namespace. */
export interface ThreadRef {
  threadId: string;
  checkpointNs: string;
}

/** An opened store: the saver, what it holds, and how to close it. */
export interface OpenStore {
  description: string;
  saver: BaseCheckpointSaver;
  threads(filter: { threadId?: string; checkpointNs?: string }): AsyncIterable<ThreadRef>;
  close(): Promise<void>;
}

/** A failure the CLI reports as one line and exit code 2 (bad usage, unreachable or unfit store). */
export class DoctorUsageError extends Error {}

const PAGE = 500;

/** Loads an optional dependency of the CLI, with a clear message when it is not installed. */
async function load<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch {
    throw new DoctorUsageError(`${name} is not installed: npm install ${name}`);
  }
}

export async function openSqlite(file: string): Promise<OpenStore> {
  // SqliteSaver creates its tables in any file it opens; the doctor must not create a store by accident.
  if (!existsSync(file)) throw new DoctorUsageError(`no such SQLite file: ${file}`);
  const { SqliteSaver } = await load<typeof import("@langchain/langgraph-checkpoint-sqlite")>("@langchain/langgraph-checkpoint-sqlite");
  const { default: Database } = await load<{ default: typeof import("better-sqlite3") }>("better-sqlite3");
  const db = new Database(file, { fileMustExist: true });
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get();
  if (!hasTable) {
    db.close();
    throw new DoctorUsageError(`${file} has no checkpoints table: is it a LangGraph SQLite store?`);
  }
  const page = db.prepare(
    `SELECT DISTINCT thread_id, checkpoint_ns FROM checkpoints
     WHERE (? IS NULL OR (thread_id, checkpoint_ns) > (?, ?)) AND (? IS NULL OR thread_id = ?) AND (? IS NULL OR checkpoint_ns = ?)
     ORDER BY thread_id, checkpoint_ns LIMIT ${PAGE}`,
  );
  return {
    description: `SQLite ${file}`,
    saver: new SqliteSaver(db),
    threads: ({ threadId, checkpointNs }) =>
      pages(async (after) => {
        const rows = page.all(
          after ? 1 : null, after?.threadId ?? null, after?.checkpointNs ?? null,
          threadId ?? null, threadId ?? null, checkpointNs ?? null, checkpointNs ?? null,
        ) as { thread_id: string; checkpoint_ns: string }[];
        return rows.map((r) => ({ threadId: r.thread_id, checkpointNs: r.checkpoint_ns }));
      }),
    close: async () => void db.close(),
  };
}

export async function openPostgres(url: string, schema = "public"): Promise<OpenStore> {
  const { PostgresSaver } = await load<typeof import("@langchain/langgraph-checkpoint-postgres")>("@langchain/langgraph-checkpoint-postgres");
  const { default: pg } = await load<{ default: typeof import("pg") }>("pg");
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5000, max: 4 });
  const table = `${pg.escapeIdentifier(schema)}.checkpoints`;
  try {
    await pool.query(`SELECT 1 FROM ${table} LIMIT 1`);
  } catch (error) {
    await pool.end();
    const code = (error as { code?: string }).code;
    if (code === "42P01") throw new DoctorUsageError(`no checkpoints table in schema "${schema}" at ${redact(url)}: is it a LangGraph Postgres store?`);
    throw new DoctorUsageError(`cannot reach Postgres at ${redact(url)}: ${(error as Error).message}`);
  }
  return {
    description: `Postgres ${redact(url)} (schema ${schema})`,
    saver: new PostgresSaver(pool, undefined, { schema }),
    threads: ({ threadId, checkpointNs }) =>
      pages(async (after) => {
        const { rows } = await pool.query(
          `SELECT DISTINCT thread_id, checkpoint_ns FROM ${table}
           WHERE ($1::text IS NULL OR (thread_id, checkpoint_ns) > ($1, $2)) AND ($3::text IS NULL OR thread_id = $3) AND ($4::text IS NULL OR checkpoint_ns = $4)
           ORDER BY thread_id, checkpoint_ns LIMIT ${PAGE}`,
          [after?.threadId ?? null, after?.checkpointNs ?? null, threadId ?? null, checkpointNs ?? null],
        );
        return rows.map((r: { thread_id: string; checkpoint_ns: string }) => ({ threadId: r.thread_id, checkpointNs: r.checkpoint_ns }));
      }),
    close: () => pool.end(),
  };
}

export async function openRedis(url: string, keyPrefix = "langgraph"): Promise<OpenStore> {
  const { Redis } = await load<typeof import("ioredis")>("ioredis");
  const { IORedisSaver } = await import("../redis/index.js");
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null, connectTimeout: 5000 });
  // connect() only says "Connection is closed."; the error event says why (ECONNREFUSED, auth, DNS).
  let cause: Error | undefined;
  client.on("error", (error: Error) => (cause = error));
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new DoctorUsageError(`cannot reach Redis at ${redact(url)}: ${(cause ?? (error as Error)).message}`);
  }
  const saver = new IORedisSaver(client, { keyPrefix });
  return {
    description: `Redis ${redact(url)} (prefix ${keyPrefix})`,
    saver,
    threads: (filter) => saver.threads(filter),
    close: async () => void (await client.quit()),
  };
}

/** Keyset pagination over (thread, namespace) pairs: each page starts after the last pair of the previous one. */
async function* pages(fetch: (after: ThreadRef | null) => Promise<ThreadRef[]>): AsyncGenerator<ThreadRef> {
  let after: ThreadRef | null = null;
  for (;;) {
    const page = await fetch(after);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!;
  }
}
