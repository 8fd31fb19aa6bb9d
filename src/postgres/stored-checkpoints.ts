// One read's rows grouped into checkpoints, with their channel blobs and pending writes in the official saver's order.
import type { Checkpoint } from "@langchain/langgraph-checkpoint";
import { BLOB_ROW, CHECKPOINT_ROW, type ReadRow } from "./read-sql.js";

/** A stored value: its serde type and its data, as text for type "json" (`null` where the column is null). */
export interface StoredValue {
  type: string;
  data: string | Uint8Array | null;
}

export interface StoredCheckpoint {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
  parentCheckpointId: string | null;
  checkpoint: StoredCheckpointColumn;
  /** The `metadata` column, parsed. */
  metadata: Record<string, unknown>;
  blobs: (StoredValue & { channel: string })[];
  writes: (StoredValue & { taskId: string; channel: string })[];
}

const dataOf = (row: ReadRow): string | Uint8Array | null =>
  row.json ?? (row.base64 === null ? null : Buffer.from(row.base64, "base64"));

/** The `checkpoint` column: a checkpoint without its values, which are rows of their own. */
export type StoredCheckpointColumn = Omit<Checkpoint, "channel_values" | "channel_versions" | "versions_seen"> &
  Partial<Pick<Checkpoint, "channel_versions" | "versions_seen">>;

/** The checkpoints in `rows`, in the order the statement selected them. */
export function groupRows(rows: ReadRow[]): StoredCheckpoint[] {
  const checkpoints: StoredCheckpoint[] = [];
  for (const row of rows) {
    if (row.kind !== CHECKPOINT_ROW) continue;
    checkpoints[Number(row.pos) - 1] = {
      threadId: row.thread_id!,
      checkpointNs: row.checkpoint_ns!,
      checkpointId: row.checkpoint_id!,
      parentCheckpointId: row.parent_checkpoint_id,
      checkpoint: JSON.parse(row.checkpoint!),
      metadata: JSON.parse(row.metadata!),
      blobs: [],
      writes: [],
    };
  }
  for (const row of rows) {
    const owner = checkpoints[Number(row.pos) - 1]!;
    const value = { channel: row.channel!, type: row.type!, data: dataOf(row) };
    if (row.kind === BLOB_ROW) owner.blobs.push(value);
    else if (row.kind !== CHECKPOINT_ROW) owner.writes[Number(row.ord) - 1] = { ...value, taskId: row.task_id! };
  }
  return checkpoints;
}
