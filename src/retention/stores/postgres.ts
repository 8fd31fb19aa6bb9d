// The official Postgres tables (PostgresSaver, FastPostgresSaver), through the saver's own pool: no driver is loaded
// here. A batch is read in one snapshot and removed in one transaction.
import type { Pool, PoolClient } from "pg";
import { cursorPages } from "../../postgres/cursor-pages.js";
import type { CheckpointHead, StoredBlob, ThreadPlan } from "../history.js";
import { PAGE, type RetentionStore } from "../store.js";
import { deltaChannelsOf, groupByThread, parentsOf } from "./rows.js";

/** @internal */
export type PostgresPool = Pick<Pool, "connect" | "query">;

// Mirrors thread-state.ts's `hasPendingTasks` on the channels the newest checkpoint names: a trigger, input not yet
// applied, a join, or a send (the empty list "[]" is two bytes).
const pendingTasks = (s: string) => `exists (
  select 1 from jsonb_each_text(cp.checkpoint -> 'channel_versions') as v
  join ${s}.checkpoint_blobs as b on b.thread_id = cp.thread_id and b.checkpoint_ns = cp.checkpoint_ns
    and b.channel = v.key and b.version = v.value
  where b.type <> 'empty' and (v.key like 'branch:to:%' or v.key = '__start__' or v.key like 'join:%'
    or (v.key = '__pregel_tasks' and octet_length(b.blob) > 2)))`;

const checkpointsSql = (s: string) => `with cp as (
  select c.*, c.checkpoint_id = max(c.checkpoint_id) over (partition by c.thread_id, c.checkpoint_ns) as newest
  from ${s}.checkpoints as c where c.thread_id = any($1::text[])
)
select cp.thread_id, cp.checkpoint_ns, cp.checkpoint_id, cp.parent_checkpoint_id, cp.metadata ->> 'source' as source,
  (cp.metadata -> 'parents')::text as parents, (cp.metadata -> 'counters_since_delta_snapshot')::text as counters,
  cp.checkpoint ->> 'v' as format, (cp.checkpoint -> 'channel_versions')::text as versions,
  pg_column_size(cp.checkpoint) + pg_column_size(cp.metadata) as bytes,
  case when cp.newest then ${pendingTasks(s)} end as pending
from cp`;

const writesSql = (s: string) => `select thread_id, checkpoint_ns, checkpoint_id, count(*)::int as writes,
  sum(pg_column_size(blob))::int as bytes, bool_or(channel = '__pregel_tasks') as sends
from ${s}.checkpoint_writes where thread_id = any($1::text[]) group by thread_id, checkpoint_ns, checkpoint_id`;

const blobsSql = (
  s: string,
) => `select thread_id, checkpoint_ns, channel, version, coalesce(pg_column_size(blob), 0) as bytes
from ${s}.checkpoint_blobs where thread_id = any($1::text[])`;

interface CheckpointRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  source: string | null;
  parents: string | null;
  counters: string | null;
  format: string | null;
  versions: string | null;
  bytes: number;
  pending: boolean | null;
}
interface WriteRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  writes: number;
  bytes: number;
  sends: boolean;
}
type BlobRow = Omit<StoredBlob, "checkpointNs"> & { thread_id: string; checkpoint_ns: string };

const key = (...parts: string[]) => JSON.stringify(parts);

function toHead(row: CheckpointRow, writes: WriteRow | undefined): CheckpointHead {
  const head: CheckpointHead = {
    checkpointNs: row.checkpoint_ns,
    checkpointId: row.checkpoint_id,
    parentId: row.parent_checkpoint_id,
    source: row.source ?? undefined,
    parents: parentsOf(row.parents === null ? undefined : JSON.parse(row.parents)),
    deltaChannels: deltaChannelsOf(row.counters === null ? undefined : JSON.parse(row.counters)),
    format: row.format === null ? undefined : Number(row.format),
    sends: writes?.sends ?? false,
    bytes: row.bytes,
    writes: writes?.writes ?? 0,
    writeBytes: writes?.bytes ?? 0,
    channelVersions: row.versions?.startsWith("{") ? JSON.parse(row.versions) : {},
  };
  if (row.pending !== null) head.pendingTasks = row.pending;
  return head;
}

/** Removes the plans' checkpoints, their writes and unreferenced values, and relinks, in one transaction. */
async function applyPlans(client: PoolClient, s: string, plans: readonly ThreadPlan[]): Promise<void> {
  const column = <T>(rows: T[], pick: (row: T) => unknown) => rows.map(pick);
  const removed = plans.flatMap((p) => p.remove.map((head) => ({ threadId: p.threadId, ...head })));
  const relinked = plans.flatMap((p) =>
    p.relink.map(({ head, parentId }) => ({ threadId: p.threadId, ...head, parentId })),
  );
  const blobs = plans.flatMap((p) => p.blobs.map((b) => ({ threadId: p.threadId, ...b })));
  const ids = [
    column(removed, (r) => r.threadId),
    column(removed, (r) => r.checkpointNs),
    column(removed, (r) => r.checkpointId),
  ];
  const match = (alias: string) =>
    `${alias}.thread_id = r.t and ${alias}.checkpoint_ns = r.ns and ${alias}.checkpoint_id = r.id`;
  await client.query(
    `update ${s}.checkpoints as c set parent_checkpoint_id = r.parent
     from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as r(t, ns, id, parent) where ${match("c")}`,
    [
      column(relinked, (r) => r.threadId),
      column(relinked, (r) => r.checkpointNs),
      column(relinked, (r) => r.checkpointId),
      column(relinked, (r) => r.parentId),
    ],
  );
  const unnestIds = `unnest($1::text[], $2::text[], $3::text[]) as r(t, ns, id)`;
  await client.query(`delete from ${s}.checkpoint_writes as w using ${unnestIds} where ${match("w")}`, ids);
  await client.query(`delete from ${s}.checkpoints as c using ${unnestIds} where ${match("c")}`, ids);
  // A value a checkpoint stored since the batch was read refers to stays.
  await client.query(
    `delete from ${s}.checkpoint_blobs as b using unnest($1::text[], $2::text[], $3::text[], $4::text[]) as r(t, ns, ch, v)
     where b.thread_id = r.t and b.checkpoint_ns = r.ns and b.channel = r.ch and b.version = r.v
       and not exists (select 1 from ${s}.checkpoints as c where c.thread_id = b.thread_id
         and c.checkpoint_ns = b.checkpoint_ns and c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
    [
      column(blobs, (b) => b.threadId),
      column(blobs, (b) => b.checkpointNs),
      column(blobs, (b) => b.channel),
      column(blobs, (b) => b.version),
    ],
  );
}

async function inTransaction<T>(pool: PostgresPool, begin: string, work: (client: PoolClient) => Promise<T>) {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** @internal */
export function postgresRetention(pool: PostgresPool, schema: string, description?: string): RetentionStore {
  const s = `"${schema.replaceAll('"', '""')}"`;
  return {
    description: description ?? `Postgres (schema ${schema})`,
    threads({ threadId, after }) {
      const where = `where ($1::text is null or thread_id = $1) and ($2::text is null or thread_id collate "C" > $2)`;
      const args = [threadId ?? null, after ?? null];
      const counted = pool.query<{ n: string }>(
        `select count(distinct thread_id) as n from ${s}.checkpoints ${where}`,
        args,
      );
      const sql = `select distinct thread_id collate "C" as thread_id from ${s}.checkpoints ${where} order by 1`;
      return {
        pages: cursorPages(pool, [sql, args], PAGE, (row: { thread_id: string }) => row.thread_id),
        total: counted.then(({ rows }) => Number(rows[0]!.n)).catch(() => undefined),
      };
    },
    // One snapshot, so a checkpoint stored meanwhile is in all three reads or in none.
    read: (threadIds) =>
      inTransaction(pool, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", async (client) => {
        const args = [threadIds];
        const checkpoints = (await client.query<CheckpointRow>(checkpointsSql(s), args)).rows;
        const writes = new Map<string, WriteRow>();
        for (const row of (await client.query<WriteRow>(writesSql(s), args)).rows)
          writes.set(key(row.thread_id, row.checkpoint_ns, row.checkpoint_id), row);
        const blobs = (await client.query<BlobRow>(blobsSql(s), args)).rows;
        const heads = checkpoints.map((row) => ({
          threadId: row.thread_id,
          head: toHead(row, writes.get(key(row.thread_id, row.checkpoint_ns, row.checkpoint_id))),
        }));
        const stored = blobs.map(({ thread_id, checkpoint_ns, channel, version, bytes }) => ({
          threadId: thread_id,
          blob: { checkpointNs: checkpoint_ns, channel, version, bytes },
        }));
        return groupByThread(threadIds, heads, stored);
      }),
    apply: async (plans) => {
      if (plans.length > 0) await inTransaction(pool, "BEGIN", (client) => applyPlans(client, s, plans));
    },
  };
}
