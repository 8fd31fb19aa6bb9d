// SqliteSaver's tables, through its own connection: a batch is read in one statement and removed in one transaction.
// Only prepared statements are used, so a read-only connection (the doctor's dry run) works as it is.
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type Database from "better-sqlite3";
import type { CheckpointHead, ThreadPlan } from "../history.js";
import { PAGE, type RetentionStore } from "../store.js";
import { deltaChannelsOf, groupByThread, parentsOf } from "./rows.js";

/** @internal */
export type SqliteDatabase = Pick<Database.Database, "prepare" | "transaction">;

const isJson = (alias: string) => `coalesce(${alias}.type, 'json') = 'json'`;
const asText = (column: string) => `cast(${column} as text)`;

// Mirrors thread-state.ts's `hasPendingTasks`: a trigger, input not yet applied, a join, or a send.
const PENDING = `exists (select 1 from json_each(${asText("c.checkpoint")}, '$.channel_values') as v
  where substr(v.key, 1, 10) = 'branch:to:' or v.key = '__start__' or substr(v.key, 1, 5) = 'join:'
    or (v.key = '__pregel_tasks' and (v.type <> 'array' or json_array_length(v.value) > 0)))`;

const READ = `with batch(thread_id) as (select value from json_each(?)),
w as materialized (
  select thread_id, checkpoint_ns, checkpoint_id, count(*) as writes, sum(length(value)) as bytes,
    max(channel = '__pregel_tasks') as sends
  from writes where thread_id in (select thread_id from batch) group by thread_id, checkpoint_ns, checkpoint_id
),
c as (
  select *, checkpoint_id = max(checkpoint_id) over (partition by thread_id, checkpoint_ns) as newest
  from checkpoints where thread_id in (select thread_id from batch)
)
select c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, c.type,
  case when ${isJson("c")} then ${asText("c.metadata")} else c.metadata end as metadata,
  coalesce(length(c.checkpoint), 0) + coalesce(length(c.metadata), 0) as bytes,
  coalesce(w.writes, 0) as writes, coalesce(w.bytes, 0) as write_bytes, coalesce(w.sends, 0) as sends,
  case when c.newest and ${isJson("c")} and json_valid(${asText("c.checkpoint")}) then ${PENDING} end as pending,
  -- The format matters only under a parent that sent: the checkpoint JSON is parsed there alone.
  case when p.sends and ${isJson("c")} and json_valid(${asText("c.checkpoint")})
    then json_extract(${asText("c.checkpoint")}, '$.v') end as format
from c
left join w on w.thread_id = c.thread_id and w.checkpoint_ns = c.checkpoint_ns and w.checkpoint_id = c.checkpoint_id
left join w as p on p.thread_id = c.thread_id and p.checkpoint_ns = c.checkpoint_ns
  and p.checkpoint_id = c.parent_checkpoint_id`;

interface Row {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  type: string | null;
  metadata: string | Uint8Array | null;
  bytes: number;
  writes: number;
  write_bytes: number;
  sends: number;
  pending: number | null;
  format: number | null;
}

async function toHead(row: Row, serde: SerializerProtocol): Promise<CheckpointHead> {
  const stored = row.metadata;
  const metadata = (
    stored === null ? {} : typeof stored === "string" ? JSON.parse(stored) : await serde.loadsTyped(row.type!, stored)
  ) as Record<string, unknown> | null;
  const head: CheckpointHead = {
    checkpointNs: row.checkpoint_ns,
    checkpointId: row.checkpoint_id,
    parentId: row.parent_checkpoint_id,
    source: typeof metadata?.source === "string" ? metadata.source : undefined,
    parents: parentsOf(metadata?.parents),
    deltaChannels: deltaChannelsOf(metadata?.counters_since_delta_snapshot),
    format: row.format ?? undefined,
    sends: row.sends === 1,
    bytes: row.bytes,
    writes: row.writes,
    writeBytes: row.write_bytes,
  };
  if (row.pending !== null) head.pendingTasks = row.pending === 1;
  return head;
}

/** @internal */
export function sqliteRetention(db: SqliteDatabase, serde: SerializerProtocol, description = "SQLite"): RetentionStore {
  let read: Database.Statement | undefined;
  let removal: ((plans: readonly ThreadPlan[]) => void) | undefined;
  const prepareRemoval = () => {
    const relink = db.prepare(
      "update checkpoints set parent_checkpoint_id = ? where thread_id = ? and checkpoint_ns = ? and checkpoint_id = ?",
    );
    const where = "where thread_id = ? and checkpoint_ns = ? and checkpoint_id = ?";
    const writes = db.prepare(`delete from writes ${where}`);
    const checkpoints = db.prepare(`delete from checkpoints ${where}`);
    return db.transaction((plans: readonly ThreadPlan[]) => {
      for (const { threadId, relink: relinks, remove } of plans) {
        for (const { head, parentId } of relinks) relink.run(parentId, threadId, head.checkpointNs, head.checkpointId);
        for (const { checkpointNs, checkpointId } of remove) {
          writes.run(threadId, checkpointNs, checkpointId);
          checkpoints.run(threadId, checkpointNs, checkpointId);
        }
      }
    });
  };
  return {
    description,
    threads({ threadId, after }) {
      const filter = "where (? is null or thread_id = ?) and (? is null or thread_id > ?)";
      const args = [threadId ?? null, threadId ?? null];
      const page = db.prepare(`select distinct thread_id from checkpoints ${filter} order by thread_id limit ${PAGE}`);
      const count = db.prepare(`select count(distinct thread_id) as n from checkpoints ${filter}`);
      // Keyset pages: no statement stays open between them, so removals in between are not blocked.
      async function* pages() {
        for (let from = after ?? null; ;) {
          const ids = (page.all(...args, from, from) as { thread_id: string }[]).map((r) => r.thread_id);
          if (ids.length > 0) yield ids;
          if (ids.length < PAGE) return;
          from = ids[ids.length - 1]!;
        }
      }
      const total = Promise.resolve((count.get(...args, after ?? null, after ?? null) as { n: number }).n);
      return { pages: pages(), total };
    },
    async read(threadIds) {
      read ??= db.prepare(READ);
      const rows = read.all(JSON.stringify(threadIds)) as Row[];
      const heads = await Promise.all(
        rows.map(async (row) => ({ threadId: row.thread_id, head: await toHead(row, serde) })),
      );
      return groupByThread(threadIds, heads);
    },
    async apply(plans) {
      (removal ??= prepareRemoval())(plans);
    },
  };
}
