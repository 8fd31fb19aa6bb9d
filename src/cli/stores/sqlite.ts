/** The doctor's SQLite adapter: a `@langchain/langgraph-checkpoint-sqlite` file. */
import { existsSync } from "node:fs";
import type Database from "better-sqlite3";
import {
  DoctorStoreError,
  loadOptional,
  PAGE,
  pages,
  type OpenOptions,
  type OpenStore,
  type ThreadFilter,
  type ThreadRef,
} from "../store.js";

/**
 * The connection as a dry run hands it to SqliteSaver. Its setup switches the file to WAL mode and creates its
 * tables, writes that a read-only connection refuses; the checkpoints table was checked to exist, so both are
 * skipped, and everything else reaches the connection.
 */
function withoutSetupWrites(db: Database.Database): Database.Database {
  return new Proxy(db, {
    get(target, key) {
      if (key === "pragma" || key === "exec") return () => undefined;
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

type RefRow = { thread_id: string; checkpoint_ns: string };
const toRef = (r: RefRow): ThreadRef => ({ threadId: r.thread_id, checkpointNs: r.checkpoint_ns });

/**
 * The pairs `filter` selects, sorted by namespace then thread id. The checkpoints table is keyed by thread first,
 * so that order needs a sort of every pair: done once, into a temporary table the connection keeps in a temporary
 * file (read-only connections may write it; the store's file is untouched), then read a keyset page at a time. A
 * statement iterated over the whole run instead would hold the connection busy, and `--fix` writes on it.
 */
function listThreads(db: Database.Database, { threadId, checkpointNs, after }: ThreadFilter) {
  db.exec(`DROP TABLE IF EXISTS temp.doctor_threads;
    CREATE TEMP TABLE doctor_threads (checkpoint_ns TEXT, thread_id TEXT, PRIMARY KEY (checkpoint_ns, thread_id)) WITHOUT ROWID`);
  db.prepare(
    `INSERT INTO temp.doctor_threads SELECT DISTINCT checkpoint_ns, thread_id FROM main.checkpoints
     WHERE (? IS NULL OR thread_id = ?) AND (? IS NULL OR checkpoint_ns = ?)`,
  ).run(threadId ?? null, threadId ?? null, checkpointNs ?? null, checkpointNs ?? null);
  const since = (ref: ThreadRef | undefined) => [ref ? 1 : null, ref?.checkpointNs ?? null, ref?.threadId ?? null];
  const AFTER = "? IS NULL OR (checkpoint_ns, thread_id) > (?, ?)";
  const page = db.prepare(
    `SELECT thread_id, checkpoint_ns FROM temp.doctor_threads WHERE ${AFTER} ORDER BY checkpoint_ns, thread_id LIMIT ${PAGE}`,
  );
  const { n } = db.prepare(`SELECT count(*) AS n FROM temp.doctor_threads WHERE ${AFTER}`).get(...since(after)) as {
    n: number;
  };
  return {
    pages: pages((from) => (page.all(...since(from)) as RefRow[]).map(toRef), after),
    total: Promise.resolve(n),
  };
}

/** Opens a SQLite store; without `writable`, read-only, so a dry run leaves the file exactly as it was. */
export async function openSqlite(file: string, { writable }: OpenOptions): Promise<OpenStore> {
  // SqliteSaver creates its tables in any file it opens; the doctor must not create a store by accident.
  if (!existsSync(file)) throw new DoctorStoreError(`no such SQLite file: ${file}`);
  const { SqliteSaver } = await loadOptional<typeof import("@langchain/langgraph-checkpoint-sqlite")>(
    "@langchain/langgraph-checkpoint-sqlite",
  );
  const { default: Database } = await loadOptional<{ default: typeof import("better-sqlite3") }>("better-sqlite3");
  const db = new Database(file, { fileMustExist: true, readonly: !writable });
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get();
  if (!hasTable) {
    db.close();
    throw new DoctorStoreError(`${file} has no checkpoints table: is it a LangGraph SQLite store?`);
  }
  return {
    description: `SQLite ${file}`,
    saver: new SqliteSaver(writable ? db : withoutSetupWrites(db)),
    threads: (filter) => listThreads(db, filter),
    close: async () => void db.close(),
  };
}
