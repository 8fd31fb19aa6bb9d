/** The doctor's SQLite adapter: a `@langchain/langgraph-checkpoint-sqlite` file. */
import { existsSync } from "node:fs";
import type Database from "better-sqlite3";
import { DoctorStoreError, loadOptional, PAGE, pages, type OpenOptions, type OpenStore } from "../store.js";

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
  const page = db.prepare(
    `SELECT DISTINCT thread_id, checkpoint_ns FROM checkpoints
     WHERE (? IS NULL OR (thread_id, checkpoint_ns) > (?, ?)) AND (? IS NULL OR thread_id = ?) AND (? IS NULL OR checkpoint_ns = ?)
     ORDER BY thread_id, checkpoint_ns LIMIT ${PAGE}`,
  );
  return {
    description: `SQLite ${file}`,
    saver: new SqliteSaver(writable ? db : withoutSetupWrites(db)),
    threads: ({ threadId, checkpointNs }) =>
      pages(async (after) => {
        const rows = page.all(
          after ? 1 : null,
          after?.threadId ?? null,
          after?.checkpointNs ?? null,
          threadId ?? null,
          threadId ?? null,
          checkpointNs ?? null,
          checkpointNs ?? null,
        ) as { thread_id: string; checkpoint_ns: string }[];
        return rows.map((r) => ({ threadId: r.thread_id, checkpointNs: r.checkpoint_ns }));
      }),
    close: async () => void db.close(),
  };
}
