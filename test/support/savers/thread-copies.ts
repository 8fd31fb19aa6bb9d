/**
 * A large store made from a few threads run for real: each copy is one of the template threads under a new id, made
 * by the store's own statements (SQL `INSERT … SELECT`, Redis `DUMP`/`RESTORE`), so 100,000 threads take seconds.
 * The doctor's and prune's benchmarks and the tests that need thousands of threads share it.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Redis } from "ioredis";
import type pg from "pg";
import type { IORedisSaver } from "../../../src/redis/index.js";

/** Thread `i` of the copies: `name` then `i` on 7 digits, so ids sort as numbers. */
export const copyId = (name: string, i: number) => `${name}${String(i).padStart(7, "0")}`;

export interface ThreadCopies {
  /**
   * Makes threads `copyId(name, 0)` to `copyId(name, count - 1)`, thread `i` a copy of `templates[i % length]`,
   * replacing earlier copies of that name.
   */
  copy(name: string, count: number, templates: readonly string[]): Promise<void>;
  /** Removes every copy of that name. */
  remove(name: string): Promise<void>;
}

const TABLES = {
  sqlite: {
    checkpoints: "checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata",
    writes: "checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value",
  },
  postgres: {
    checkpoints: "checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata",
    checkpoint_blobs: "checkpoint_ns, channel, version, type, blob",
    checkpoint_writes: "checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob",
  },
};

/** SqliteSaver's tables. */
export function sqliteCopies(saver: SqliteSaver): ThreadCopies {
  const { db } = saver;
  const series = `(with recursive s(i) as (select 0 union all select i + 1 from s where i + 1 < ?) select i from s)`;
  return {
    async copy(name, count, templates) {
      await this.remove(name);
      for (const [table, columns] of Object.entries(TABLES.sqlite)) {
        const copied = columns.replace(/(^|, )/g, "$1t.");
        db.prepare(
          `insert into ${table} select ? || substr('000000' || i, -7), ${copied} from ${series} as s
           join ${table} as t on t.thread_id = json_extract(?, '$[' || (i % cast(? as integer)) || ']')`,
        ).run(name, count, JSON.stringify(templates), templates.length);
      }
      db.exec("PRAGMA wal_checkpoint(TRUNCATE); ANALYZE");
    },
    async remove(name) {
      for (const table of Object.keys(TABLES.sqlite))
        db.prepare(`delete from ${table} where thread_id >= ? and thread_id < ?`).run(name, `${name}\uffff`);
    },
  };
}

/** The official Postgres tables, in the saver's schema. */
export function postgresCopies(saver: BaseCheckpointSaver): ThreadCopies {
  const { pool, options } = saver as unknown as { pool: pg.Pool; options: { schema: string } };
  const s = `"${options.schema}"`;
  return {
    async copy(name, count, templates) {
      await this.remove(name);
      for (const [table, columns] of Object.entries(TABLES.postgres)) {
        const copied = columns.replace(/(^|, )/g, "$1t.");
        await pool.query(
          `insert into ${s}.${table} select $1 || lpad(i::text, 7, '0'), ${copied}
           from generate_series(0, $2::int - 1) as i
           join ${s}.${table} as t on t.thread_id = ($3::text[])[i % cardinality($3::text[]) + 1]`,
          [name, count, templates],
        );
      }
      await pool.query(`vacuum analyze ${s}.checkpoints, ${s}.checkpoint_blobs, ${s}.checkpoint_writes`);
    },
    async remove(name) {
      for (const table of Object.keys(TABLES.postgres))
        await pool.query(`delete from ${s}.${table} where left(thread_id, length($1)) = $1`, [name]);
    },
  };
}

/** An IORedisSaver's keys: each template's keys dumped once, restored under each copy's hash tag. */
export function redisCopies(saver: IORedisSaver): ThreadCopies {
  const client = saver.client as Redis;
  const { prefix } = (saver as unknown as { keys: { prefix: string } }).keys;
  return {
    async copy(name, count, templates) {
      await this.remove(name);
      const dumps = new Map<string, [string, Buffer][]>();
      for (const template of new Set(templates)) {
        const keys = await client.keys(`${prefix}:{${template}}:*`);
        const tag = `${prefix}:{${template}}`.length;
        dumps.set(
          template,
          await Promise.all(keys.map(async (k) => [k.slice(tag), (await client.dumpBuffer(k))!] as [string, Buffer])),
        );
      }
      for (let start = 0; start < count; start += 2000) {
        const pipeline = client.pipeline();
        for (let i = start; i < Math.min(count, start + 2000); i++)
          for (const [suffix, dump] of dumps.get(templates[i % templates.length]!)!)
            pipeline.restore(`${prefix}:{${copyId(name, i)}}${suffix}`, 0, dump);
        await pipeline.exec();
      }
    },
    async remove(name) {
      for await (const keys of client.scanStream({ match: `${prefix}:{${name}*`, count: 1000 }))
        if ((keys as string[]).length > 0) await client.unlink(...(keys as string[]));
    },
  };
}
