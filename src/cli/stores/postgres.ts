// Through FastPostgresSaver, whose pool survives the server ending its connections (a restart, PgBouncer).
import { cursorPages } from "../../postgres/cursor-pages.js";
import { redact } from "../../redact.js";
import { DoctorStoreError, loadOptional, PAGE, type OpenStore, type ThreadFilter } from "../store.js";

/** One lists the threads; the others read and write pages concurrently. */
const CONNECTIONS = 5;

/** Byte order, code point order in UTF-8, in any collation. */
const ORDER = `checkpoint_ns COLLATE "C", thread_id COLLATE "C"`;

const toRef = (r: { thread_id: string; checkpoint_ns: string }) => ({
  threadId: r.thread_id,
  checkpointNs: r.checkpoint_ns,
});

function selectThreads(table: string, { threadId, checkpointNs, after }: ThreadFilter): [string, unknown[]] {
  return [
    `SELECT thread_id, checkpoint_ns FROM ${table}
     WHERE ($1::text IS NULL OR thread_id = $1) AND ($2::text IS NULL OR checkpoint_ns = $2)
       AND ($3::text IS NULL OR (${ORDER}) > ($3, $4))
     GROUP BY thread_id, checkpoint_ns`,
    [threadId ?? null, checkpointNs ?? null, after?.checkpointNs ?? null, after?.threadId ?? null],
  ];
}

export async function openPostgres(url: string, schema = "public"): Promise<OpenStore> {
  await loadOptional("@langchain/langgraph-checkpoint-postgres");
  const { default: pg } = await loadOptional<{ default: typeof import("pg") }>("pg");
  const { FastPostgresSaver } = await import("../../postgres/index.js");
  const { PostgresReadPath } = await import("../../postgres/read-path.js");
  type ReadPathSaver = import("../../postgres/read-path.js").ReadPathSaver;
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5000, max: CONNECTIONS });
  const saver = new FastPostgresSaver(pool, undefined, { schema });
  // The saver's own read path, so a page of latest checkpoints gives the tuples its getTuple gives.
  const readPath = new PostgresReadPath(pool, schema, saver as unknown as ReadPathSaver, (c) => saver.getTuple(c));
  const table = `${pg.escapeIdentifier(schema)}.checkpoints`;
  try {
    await pool.query(`SELECT 1 FROM ${table} LIMIT 1`);
  } catch (error) {
    await pool.end();
    const code = (error as { code?: string }).code;
    if (code === "42P01")
      throw new DoctorStoreError(
        `no checkpoints table in schema "${schema}" at ${redact(url)}: is it a LangGraph Postgres store?`,
      );
    throw new DoctorStoreError(`cannot reach Postgres at ${redact(url)}: ${(error as Error).message}`);
  }
  return {
    description: `Postgres ${redact(url)} (schema ${schema})`,
    saver,
    threads: (filter) => {
      const selection = selectThreads(table, filter);
      const counted = pool.query<{ n: string }>(`SELECT count(*) AS n FROM (${selection[0]}) AS pairs`, selection[1]);
      return {
        pages: cursorPages(pool, [`${selection[0]} ORDER BY ${ORDER}`, selection[1]], PAGE, toRef),
        // Only for progress: a failed count leaves the total unknown.
        total: counted.then(({ rows }) => Number(rows[0]!.n)).catch(() => undefined),
      };
    },
    latest: (refs) => readPath.latest(refs),
    close: () => pool.end(),
  };
}
