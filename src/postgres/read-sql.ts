// One row per blob and per write, not the official `bytea[][]` arrays node-postgres parses slowly. Every column is
// text (text-rows.ts): "json" blobs arrive as text, others (and any blob in a non-UTF-8 database) as base64.

export const CHECKPOINT_ROW = "c";
export const BLOB_ROW = "b";
export const WRITE_ROW = "w";

export interface ReadRow {
  kind: typeof CHECKPOINT_ROW | typeof BLOB_ROW | typeof WRITE_ROW;
  /** From "1", in result order. */
  pos: string;
  /** From "1", in `(task_id, idx)` order. */
  ord: string | null;
  thread_id: string | null;
  checkpoint_ns: string | null;
  checkpoint_id: string | null;
  parent_checkpoint_id: string | null;
  checkpoint: string | null;
  metadata: string | null;
  task_id: string | null;
  channel: string | null;
  type: string | null;
  json: string | null;
  base64: string | null;
}

const blobColumns = (alias: string) => {
  const asText = `${alias}.type = 'json' and getdatabaseencoding() = 'UTF8'`;
  return `case when ${asText} then convert_from(${alias}.blob, 'UTF8') end,
  case when not (${asText}) then encode(${alias}.blob, 'base64') end`;
};

/**
 * `selection` filters, orders and limits `checkpoints` as the official query does; `source` replaces the table (a
 * batch's latest checkpoints). Each blob is matched by its primary key: the official join lets the planner scan every
 * stored version of the thread's channels, which grows with the history.
 */
export function readSql(schema: string, selection: string, source = `"${schema}".checkpoints`): string {
  const table = (name: string) => `"${schema}".${name}`;
  return `with cp as (
  select *, row_number() over (order by checkpoint_id desc) as pos
  from (
    select thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata
    from ${source} ${selection}
  ) as selected
)
select '${CHECKPOINT_ROW}' as kind, cp.pos::text as pos, null::text as ord, cp.thread_id, cp.checkpoint_ns,
  cp.checkpoint_id, cp.parent_checkpoint_id, cp.checkpoint::text as checkpoint, cp.metadata::text as metadata,
  null::text as task_id, null::text as channel, null::text as type, null::text as json, null::text as base64
from cp
union all
select '${BLOB_ROW}', cp.pos::text, null, null, null, null, null, null, null, null, v.key, bl.type, ${blobColumns("bl")}
from cp
cross join lateral jsonb_each_text(cp.checkpoint -> 'channel_versions') as v
cross join lateral (
  select type, blob from ${table("checkpoint_blobs")}
  where thread_id = cp.thread_id and checkpoint_ns = cp.checkpoint_ns and channel = v.key and version = v.value
    and type <> 'empty'
  limit 1
) as bl
union all
select '${WRITE_ROW}', cp.pos::text, (row_number() over (partition by cp.pos order by cw.task_id, cw.idx))::text,
  null, null, null, null, null, null, cw.task_id, cw.channel, cw.type, ${blobColumns("cw")}
from cp
join ${table("checkpoint_writes")} cw
  on cw.thread_id = cp.thread_id and cw.checkpoint_ns = cp.checkpoint_ns and cw.checkpoint_id = cp.checkpoint_id`;
}
