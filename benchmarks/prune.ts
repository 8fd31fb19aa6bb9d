/**
 * `prune --keep-last 1` on stores of 10,000 and 100,000 threads per backend, against the store's own floors, with
 * the store's size before and after. Threads are copies (thread-copies.ts, as the doctor's benchmark makes them) of
 * four templates made by real runs, each three turns long: 93% finished, 3% stopped mid-tool, 3% stopped mid-model,
 * 1% paused at an approval (about 13 checkpoints a thread).
 *
 * - read floor: every checkpoint's ids, parent and metadata and every write's and value's key, in one statement per
 *   table (a cursor on Postgres) or one pipeline per key kind per 100 threads (Redis): the least a prune reads.
 * - delete floor: a naive keep-last-1 with no protection, in the store's own statements: on Postgres and SQLite one
 *   transaction of three DELETEs, on Redis a MULTI per thread after reading its ids and its newest checkpoint.
 * - prune: the built bin as its own process (`/usr/bin/time`: wall time with module loading, peak resident memory),
 *   a dry run against the read floor, then, on a fresh copy of the same store, `--apply` against the delete floor.
 * - size: Postgres `pg_total_relation_size` of the three tables, SQLite the file, Redis `used_memory` above what it
 *   was before the store was made; before the prune (compacted: `VACUUM FULL`, `VACUUM`), right after it, and once
 *   the store gives the space back (the same compaction; Redis frees it at once).
 *
 * npm run bench:prune [-- --quick] [-- --threads N] [-- --only postgres|sqlite|redis]
 *   (--quick: no 100,000-thread row; --threads: one row of N; --only: that backend alone)
 *
 * It prints a Markdown table; it writes nothing. Its stores are its own (a schema, a key prefix, a temporary file),
 * removed afterwards.
 */
import { HumanMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { mkdtempSync, rmSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import type pg from "pg";
import { SanitizingCheckpointer, type PruneReport } from "../src/index.js";
import { cursorPages } from "../src/postgres/cursor-pages.js";
import { decodeFrame } from "../src/redis/frame.js";
import { blobField, decodeId, KeyLayout } from "../src/redis/keys.js";
import type { IORedisSaver } from "../src/redis/index.js";
import { reactGraph } from "../test/support/graphs/react-graph.js";
import { FIRST_QUESTION, agentModel, cancelFirstTurn, nextTurn } from "../test/support/graphs/scenarios.js";
import { toolCallIds } from "../test/support/graphs/strict-chat-model.js";
import { fastPostgresFactory, redisFactory } from "../test/support/savers/savers.js";
import { postgresCopies, redisCopies, sqliteCopies, type ThreadCopies } from "../test/support/savers/thread-copies.js";
import { POSTGRES_URL, REDIS_URL, serviceAvailable } from "../test/support/servers/services.js";
import { binRun, load, timed } from "./cli-process.js";

const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const SIZES = flag("--threads")
  ? [Number(flag("--threads"))]
  : process.argv.includes("--quick")
    ? [10_000]
    : [10_000, 100_000];
/** Templates sort before every copy, and `--after` this leaves them out of each prune. */
const TEMPLATES_END = "0-~";
const MIX = Array.from({ length: 100 }, (_, i) =>
  i < 3 ? "0-tools" : i < 6 ? "0-model" : i === 6 ? "0-paused" : "0-clean",
);

/** Each three turns: a question with tools, a plain one, then a question with tools finished, stopped or paused. */
async function runTemplates(raw: BaseCheckpointSaver): Promise<void> {
  toolCallIds.unique = true;
  const saver = new SanitizingCheckpointer(raw);
  for (const thread of ["0-clean", "0-tools", "0-model", "0-paused"]) {
    await nextTurn(saver, "anthropic", thread, FIRST_QUESTION);
    await nextTurn(saver, "anthropic", thread, "Thanks!");
  }
  await nextTurn(saver, "anthropic", "0-clean", FIRST_QUESTION);
  await cancelFirstTurn(saver, "during-tools", "0-tools");
  await cancelFirstTurn(saver, "during-llm", "0-model");
  const tools = { search: () => String(interrupt("approve?")), lookup: () => "ok" };
  await reactGraph({ model: agentModel("anthropic"), tools })
    .compile(saver)
    .invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, { configurable: { thread_id: "0-paused" } });
  toolCallIds.unique = false;
}

interface Backend {
  name: string;
  args: string[];
  copies: ThreadCopies;
  /** Bytes the store holds now. */
  size(): Promise<number>;
  /** Bytes after it gives back the space it freed (`VACUUM`), where it does not at once. */
  reclaimed(): Promise<number>;
  /** The read floor; returns the rows or entries read. */
  readFloor(): Promise<number>;
  /** The delete floor; returns the checkpoints deleted. */
  deleteFloor(): Promise<number>;
  close(): Promise<void>;
}

const COPIES = "bench-";

async function postgresBackend(): Promise<Backend> {
  const saver = await fastPostgresFactory.create();
  const { schema } = (saver as unknown as { options: { schema: string } }).options;
  const pool = (saver as unknown as { pool: pg.Pool }).pool;
  await runTemplates(saver);
  const s = `"${schema}"`;
  const tables = ["checkpoints", "checkpoint_writes", "checkpoint_blobs"].map((t) => `${s}.${t}`);
  const size = async () =>
    Number(
      (await pool.query(`select ${tables.map((t) => `pg_total_relation_size('${t}')`).join(" + ")} as n`)).rows[0].n,
    );
  const copies = `thread_id >= '${COPIES}'`;
  const selections = [
    `select thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, metadata::text from ${s}.checkpoints where ${copies}`,
    `select thread_id, checkpoint_ns, checkpoint_id, pg_column_size(blob) from ${s}.checkpoint_writes where ${copies}`,
    `select thread_id, checkpoint_ns, channel, version, pg_column_size(blob) from ${s}.checkpoint_blobs where ${copies}`,
  ];
  return {
    name: "Postgres (official tables)",
    args: ["--postgres", POSTGRES_URL, "--schema", schema],
    copies: postgresCopies(saver),
    size,
    async reclaimed() {
      await pool.query(`vacuum full ${tables.join(", ")}`);
      return size();
    },
    async readFloor() {
      let rows = 0;
      for (const selection of selections)
        for await (const page of cursorPages(pool, [selection, []], 10_000, () => 0)) rows += page.length;
      return rows;
    },
    async deleteFloor() {
      const client = await pool.connect();
      try {
        await client.query("begin");
        await client.query(`create temp table gone on commit drop as select thread_id, checkpoint_ns, checkpoint_id
          from (select thread_id, checkpoint_ns, checkpoint_id,
            row_number() over (partition by thread_id, checkpoint_ns order by checkpoint_id desc) as r
            from ${s}.checkpoints where ${copies}) as ranked where r > 1`);
        const match = (t: string) =>
          `${t}.thread_id = g.thread_id and ${t}.checkpoint_ns = g.checkpoint_ns and ${t}.checkpoint_id = g.checkpoint_id`;
        await client.query(`delete from ${s}.checkpoint_writes as w using gone as g where ${match("w")}`);
        const { rowCount } = await client.query(
          `delete from ${s}.checkpoints as c using gone as g where ${match("c")}`,
        );
        await client.query(`delete from ${s}.checkpoint_blobs as b where b.${copies} and not exists (
          select 1 from ${s}.checkpoints as c where c.thread_id = b.thread_id and c.checkpoint_ns = b.checkpoint_ns
            and c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`);
        await client.query("commit");
        return rowCount ?? 0;
      } finally {
        client.release();
      }
    },
    close: () => fastPostgresFactory.destroy(saver),
  };
}

async function sqliteBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), "prune-bench-"));
  const file = join(dir, "threads.sqlite");
  const saver = SqliteSaver.fromConnString(file);
  await runTemplates(saver);
  const { db } = saver;
  const size = async () => {
    db.pragma("wal_checkpoint(TRUNCATE)");
    return statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
  };
  const copies = `thread_id >= '${COPIES}'`;
  return {
    name: "SQLite",
    args: ["--sqlite", file],
    copies: sqliteCopies(saver),
    size,
    async reclaimed() {
      db.exec("VACUUM");
      return size();
    },
    async readFloor() {
      let rows = 0;
      for (const selection of [
        `select thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, cast(metadata as text) from checkpoints where ${copies}`,
        `select thread_id, checkpoint_ns, checkpoint_id, octet_length(value) from writes where ${copies}`,
      ])
        for (const _ of db.prepare(selection).iterate()) rows++;
      return rows;
    },
    async deleteFloor() {
      return db.transaction(() => {
        db.exec(`create temp table gone as select thread_id, checkpoint_ns, checkpoint_id
          from (select thread_id, checkpoint_ns, checkpoint_id,
            row_number() over (partition by thread_id, checkpoint_ns order by checkpoint_id desc) as r
            from checkpoints where ${copies}) where r > 1`);
        const key =
          "(thread_id, checkpoint_ns, checkpoint_id) in (select thread_id, checkpoint_ns, checkpoint_id from gone)";
        db.exec(`delete from writes where ${key}`);
        const { changes } = db.prepare(`delete from checkpoints where ${key}`).run();
        db.exec("drop table temp.gone");
        return changes;
      })();
    },
    close: async () => (saver.db.close(), rmSync(dir, { recursive: true, force: true })),
  };
}

async function redisBackend(): Promise<Backend> {
  const saver = (await redisFactory.create()) as IORedisSaver;
  const client = saver.client as Redis;
  const { prefix } = (saver as unknown as { keys: { prefix: string } }).keys;
  const keys = new KeyLayout(prefix);
  const used = async () => Number(/used_memory:(\d+)/.exec(await client.info("memory"))![1]);
  const baseline = await used();
  await runTemplates(saver);
  /** The copies' ids, 100 at a time, each with its namespaces' keys. */
  async function* batches() {
    const ids: string[] = [];
    for await (const found of client.scanStream({ match: `${prefix}:{${COPIES}*}:namespaces`, count: 1000 }))
      ids.push(...(found as string[]).map((key) => keys.threadOf(key)));
    for (let start = 0; start < ids.length; start += 100) {
      const threads = ids.slice(start, start + 100);
      const members = await Promise.all(threads.map((id) => client.smembers(keys.namespaces(id))));
      yield threads.flatMap((id, i) => members[i]!.map((ns) => ({ id, ns: keys.namespace(id, decodeId(ns)) })));
    }
  }
  return {
    name: "Redis (IORedisSaver)",
    args: ["--redis", REDIS_URL, "--prefix", prefix],
    copies: redisCopies(saver),
    size: async () => (await used()) - baseline,
    reclaimed: async () => (await used()) - baseline,
    async readFloor() {
      let entries = 0;
      for await (const batch of batches()) {
        const read = await Promise.all(
          batch.flatMap(({ ns }) => [
            client.hgetallBuffer(ns.checkpoint),
            client.zrange(ns.writesIndex, "0", "-1"),
            client.hkeys(ns.blobs),
          ]),
        );
        for (const r of read) entries += Array.isArray(r) ? r.length : Object.keys(r).length;
      }
      return entries;
    },
    async deleteFloor() {
      let deleted = 0;
      for await (const batch of batches()) {
        await Promise.all(
          batch.map(async ({ ns }) => {
            const [ids, fields, blobs] = await Promise.all([
              client.zrevrange(ns.checkpoints, "0", "-1"),
              client.zrange(ns.writesIndex, "0", "-1"),
              client.hkeys(ns.blobs),
            ]);
            const [newest, ...old] = ids;
            if (newest === undefined || old.length === 0) return;
            const frame = (await client.hgetBuffer(ns.checkpoint, newest))!;
            const { channel_versions } = JSON.parse(decodeFrame(frame).parts[0]!.toString()) as {
              channel_versions: Record<string, string | number>;
            };
            const kept = new Set(Object.entries(channel_versions).map(([c, v]) => blobField(c, v)));
            const gone = new Set(old);
            const writes = fields.filter((f) => gone.has(f.slice(0, f.indexOf("|"))));
            const multi = client
              .multi()
              .zrem(ns.checkpoints, ...old)
              .hdel(ns.checkpoint, ...old);
            if (writes.length > 0) multi.hdel(ns.writes, ...writes).zrem(ns.writesIndex, ...writes);
            const unreferenced = blobs.filter((b) => !kept.has(b));
            if (unreferenced.length > 0) multi.hdel(ns.blobs, ...unreferenced);
            await multi.exec();
            deleted += old.length;
          }),
        );
      }
      return deleted;
    },
    close: async () => (await redisCopies(saver).remove(COPIES), await redisFactory.destroy(saver)),
  };
}

const MB = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const prune = (args: string[]) => binRun<PruneReport>("prune", [...args, "--keep-last", "1", "--after", TEMPLATES_END]);

const opens = (
  [
    ["postgres", postgresBackend, "postgres"],
    ["sqlite", sqliteBackend, undefined],
    ["redis", redisBackend, "redis"],
  ] as const
).filter(([name]) => flag("--only") === undefined || flag("--only") === name);
const rows: string[] = [];
for (const [, open, service] of opens) {
  if (service !== undefined && !(await serviceAvailable(service))) continue;
  const backend = await open();
  try {
    const peaks: { dry: number; apply: number }[] = [];
    for (const n of SIZES) {
      await backend.copies.copy(COPIES, n, MIX);
      const loadBefore = load();
      const [readFloor, read] = await timed(() => backend.readFloor());
      const dry = await prune(backend.args);
      const [deleteFloor, deleted] = await timed(() => backend.deleteFloor());
      // A fresh copy, compacted, so the sizes before and after are of the same store with nothing freed earlier.
      await backend.copies.copy(COPIES, n, MIX);
      const before = await backend.reclaimed();
      const apply = await prune([...backend.args, "--apply"]);
      const after = await backend.size();
      const reclaimed = await backend.reclaimed();
      peaks.push({ dry: dry.mb, apply: apply.mb });
      const { removed, kept, scanned } = apply.report;
      rows.push(
        `| ${backend.name} | ${n.toLocaleString("en-US")} | ${MB(before)} | ${readFloor.toFixed(2)} s (${read} rows) | ${dry.seconds.toFixed(2)} s | ${(dry.seconds / readFloor).toFixed(2)}× | ${dry.mb.toFixed(0)} MB | ${deleteFloor.toFixed(2)} s (${deleted}) | ${apply.seconds.toFixed(2)} s | ${(apply.seconds / deleteFloor).toFixed(2)}× | ${apply.mb.toFixed(0)} MB | ${MB(after)} → ${MB(reclaimed)} | ${scanned} threads: ${removed.checkpoints} checkpoints, ${removed.writes} writes, ${removed.blobs} values (${MB(removed.bytes)}) removed, ${kept} kept | ${loadBefore} → ${load()} |`,
      );
      console.error(rows.at(-1));
    }
    if (peaks.length === 2)
      rows.push(
        `| ${backend.name} | peak memory, 100,000 / 10,000 | | | | | ${(peaks[1]!.dry / peaks[0]!.dry).toFixed(2)}× | | | | ${(peaks[1]!.apply / peaks[0]!.apply).toFixed(2)}× | | | |`,
      );
  } finally {
    await backend.close();
  }
}
console.log(
  [
    "One run each; `prune --keep-last 1`.",
    "",
    "| backend | threads | size before | read floor | dry run | dry run / floor | dry run peak RSS | delete floor | --apply | --apply / floor | --apply peak RSS | size after → reclaimed | removed | load average |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ...rows,
  ].join("\n"),
);
