/**
 * The doctor's Postgres adapter: the tables of `@langchain/langgraph-checkpoint-postgres`, in one schema, read and
 * written through FastPostgresSaver, whose pool survives the server ending its connections (a restart, PgBouncer).
 */
import { redact } from "../../redact.js";
import { DoctorStoreError, loadOptional, PAGE, pages, type OpenStore } from "../store.js";

export async function openPostgres(url: string, schema = "public"): Promise<OpenStore> {
  await loadOptional("@langchain/langgraph-checkpoint-postgres");
  const { default: pg } = await loadOptional<{ default: typeof import("pg") }>("pg");
  const { FastPostgresSaver } = await import("../../postgres/index.js");
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5000, max: 4 });
  const saver = new FastPostgresSaver(pool, undefined, { schema });
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
    threads: ({ threadId, checkpointNs }) =>
      pages(async (after) => {
        const { rows } = await pool.query(
          `SELECT DISTINCT thread_id, checkpoint_ns FROM ${table}
           WHERE ($1::text IS NULL OR (thread_id, checkpoint_ns) > ($1, $2)) AND ($3::text IS NULL OR thread_id = $3) AND ($4::text IS NULL OR checkpoint_ns = $4)
           ORDER BY thread_id, checkpoint_ns LIMIT ${PAGE}`,
          [after?.threadId ?? null, after?.checkpointNs ?? null, threadId ?? null, checkpointNs ?? null],
        );
        return rows.map((r: { thread_id: string; checkpoint_ns: string }) => ({
          threadId: r.thread_id,
          checkpointNs: r.checkpoint_ns,
        }));
      }),
    close: () => pool.end(),
  };
}
