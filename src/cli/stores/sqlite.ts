import { existsSync } from "node:fs";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type Database from "better-sqlite3";
import { FastJsonPlusSerializer } from "../../serde/fast-jsonplus-serializer.js";
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

/** SqliteSaver's setup writes (WAL mode, tables) that a read-only connection refuses are skipped. */
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
 * The table is keyed by thread first, so the order needs one sort, into a temporary table (read-only connections may
 * write it), read a keyset page at a time: a statement held open for the run would block `--fix`'s writes.
 */
function listThreads(db: Database.Database, { threadId, checkpointNs, after }: ThreadFilter) {
  db.exec(`DROP TABLE IF EXISTS temp.doctor_threads;
    CREATE TEMP TABLE doctor_threads (checkpoint_ns TEXT, thread_id TEXT, PRIMARY KEY (checkpoint_ns, thread_id)) WITHOUT ROWID`);
  db.prepare(
    `INSERT INTO temp.doctor_threads SELECT DISTINCT checkpoint_ns, thread_id FROM main.checkpoints
     WHERE (? IS NULL OR thread_id = ?) AND (? IS NULL OR checkpoint_ns = ?)`,
  ).run(threadId ?? null, threadId ?? null, checkpointNs ?? null, checkpointNs ?? null);
  // Two statements: `? IS NULL OR` keeps SQLite off the key, so each page would scan every pair before it.
  const select = `SELECT thread_id, checkpoint_ns FROM temp.doctor_threads`;
  const order = `ORDER BY checkpoint_ns, thread_id LIMIT ${PAGE}`;
  const first = db.prepare(`${select} ${order}`);
  const next = db.prepare(`${select} WHERE (checkpoint_ns, thread_id) > (?, ?) ${order}`);
  const page = (from: ThreadRef | undefined) =>
    (from ? next.all(from.checkpointNs, from.threadId) : first.all()) as RefRow[];
  const { n } = db
    .prepare(`SELECT count(*) AS n FROM temp.doctor_threads WHERE ? IS NULL OR (checkpoint_ns, thread_id) > (?, ?)`)
    .get(after ? 1 : null, after?.checkpointNs ?? null, after?.threadId ?? null) as { n: number };
  return { pages: pages((from) => page(from).map(toRef), after), total: Promise.resolve(n) };
}

interface LatestRow {
  position: number;
  thread_id: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  type: string | null;
  checkpoint: Uint8Array | string;
  metadata: Uint8Array | string;
  pending_writes: string;
}

/**
 * JSON as text, not a blob: a Buffer per column cost more than the query (0.5 s in 100,000 threads). In a UTF-8 file
 * SQLite's text is what the serde's decoder makes of the bytes, but for a leading BOM, which the decoder drops: that
 * value stays a blob. In a file of another encoding every value stays a blob.
 */
const jsonAsText = (column: string, utf8: boolean) =>
  utf8
    ? `CASE WHEN coalesce(c.type, 'json') = 'json' AND substr(${column}, 1, 3) <> x'efbbbf'
    THEN CAST(${column} AS TEXT) ELSE ${column} END`
    : column;

/**
 * SqliteSaver's getTuple statement (1.x) for a page of threads, one index probe apiece, minus `pending_sends`. The
 * file's encoding is read once, not on every row.
 */
const latestSql = (
  utf8: boolean,
) => `WITH ref(position, thread_id, checkpoint_ns) AS (SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))
  SELECT ref.position, c.thread_id, c.checkpoint_id, c.parent_checkpoint_id, c.type,
    ${jsonAsText("c.checkpoint", utf8)} AS checkpoint, ${jsonAsText("c.metadata", utf8)} AS metadata,
    (SELECT json_group_array(json_object('task_id', pw.task_id, 'channel', pw.channel, 'type', pw.type,
        'value', CAST(pw.value AS TEXT)))
      FROM writes AS pw
      WHERE pw.thread_id = c.thread_id AND pw.checkpoint_ns = c.checkpoint_ns AND pw.checkpoint_id = c.checkpoint_id
    ) AS pending_writes
  FROM ref JOIN checkpoints AS c ON c.thread_id = ref.thread_id AND c.checkpoint_ns = ref.checkpoint_ns
    AND c.checkpoint_id = (SELECT max(checkpoint_id) FROM checkpoints
      WHERE thread_id = ref.thread_id AND checkpoint_ns = ref.checkpoint_ns)`;

/** Field for field as getTuple builds it; a checkpoint before format 4 goes to getTuple, which migrates its sends. */
async function latest(statement: Database.Statement, saver: SqliteSaver, refs: readonly ThreadRef[]) {
  const rows = statement.all(JSON.stringify(refs.map((r) => [r.threadId, r.checkpointNs]))) as LatestRow[];
  const tuples: (CheckpointTuple | undefined)[] = refs.map(() => undefined);
  const { serde } = saver;
  for (const row of rows) {
    const checkpoint_ns = refs[row.position]!.checkpointNs;
    const config = { configurable: { thread_id: row.thread_id, checkpoint_ns, checkpoint_id: row.checkpoint_id } };
    const checkpoint = (await serde.loadsTyped(row.type ?? "json", row.checkpoint)) as CheckpointTuple["checkpoint"];
    if (checkpoint.v < 4 && row.parent_checkpoint_id != null) {
      tuples[row.position] = await saver.getTuple(config);
      continue;
    }
    const writes = JSON.parse(row.pending_writes) as {
      task_id: string;
      channel: string;
      type?: string;
      value?: string;
    }[];
    tuples[row.position] = {
      checkpoint,
      config,
      metadata: (await serde.loadsTyped(row.type ?? "json", row.metadata)) as CheckpointTuple["metadata"],
      parentConfig: row.parent_checkpoint_id
        ? { configurable: { thread_id: row.thread_id, checkpoint_ns, checkpoint_id: row.parent_checkpoint_id } }
        : undefined,
      pendingWrites: await Promise.all(
        writes.map(async (w): Promise<[string, string, unknown]> => [
          w.task_id,
          w.channel,
          await serde.loadsTyped(w.type ?? "json", w.value ?? ""),
        ]),
      ),
    };
  }
  return tuples;
}

/** Read-only without `writable`, so a dry run leaves the file as it was. */
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
  const saver = new SqliteSaver(writable ? db : withoutSetupWrites(db), new FastJsonPlusSerializer());
  let statement: Database.Statement | undefined;
  return {
    description: `SQLite ${file}`,
    saver,
    threads: (filter) => listThreads(db, filter),
    latest: (refs) =>
      latest((statement ??= db.prepare(latestSql(db.pragma("encoding", { simple: true }) === "UTF-8"))), saver, refs),
    close: async () => void db.close(),
  };
}
