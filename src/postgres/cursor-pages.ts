// A listing read through a cursor: the key starts with the thread, so the server sorts once, where keyset pages
// would each sort again. Shared by the doctor and `prune`; it loads no driver (the pool is the caller's).
import type { Pool } from "pg";

/** The rows of `sql`, `size` at a time, in one read-only transaction held for the listing. @internal */
export async function* cursorPages<Row extends object, T>(
  pool: Pick<Pool, "connect">,
  [sql, args]: [string, unknown[]],
  size: number,
  toItem: (row: Row) => T,
): AsyncGenerator<T[]> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN READ ONLY");
    await client.query(`DECLARE listing NO SCROLL CURSOR FOR ${sql}`, args);
    for (;;) {
      const { rows } = await client.query<Row>(`FETCH ${size} FROM listing`);
      if (rows.length > 0) yield rows.map(toItem);
      if (rows.length < size) return;
    }
  } finally {
    await client.query("ROLLBACK").catch(() => {});
    client.release();
  }
}
