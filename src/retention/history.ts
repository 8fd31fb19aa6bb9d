// A thread as retention reads it: every checkpoint's ids, parent and metadata, and the sizes of what it holds, never
// the values themselves. Each store builds it in a few statements or pipelines per batch of threads.

/** One stored checkpoint. @internal */
export interface CheckpointHead {
  checkpointNs: string;
  checkpointId: string;
  parentId: string | null;
  /** `metadata.source`: "input", "loop", "update", "fork". */
  source: string | undefined;
  /** `metadata.parents`: the parent graphs' checkpoint a subgraph's checkpoint ran under, by namespace. */
  parents: Record<string, string>;
  /** The keys of `metadata.counters_since_delta_snapshot`: delta channels not snapshotted at this checkpoint. */
  deltaChannels: readonly string[];
  /** `checkpoint.v`; `undefined` when the store could not read it cheaply. */
  format: number | undefined;
  /** Whether one of its writes is a `Send` (`__pregel_tasks`); `undefined` when not known. */
  sends: boolean | undefined;
  /** Set on a namespace's newest checkpoint: whether a task is left to run (`undefined`: not known). */
  pendingTasks?: boolean;
  /** The checkpoint and its metadata, as stored. */
  bytes: number;
  writes: number;
  writeBytes: number;
  /** `checkpoint.channel_versions`, where the store keeps values apart, by channel and version (Postgres, Redis). */
  channelVersions?: Record<string, string | number>;
}

/** A channel value stored apart from the checkpoints (Postgres `checkpoint_blobs`, Redis `blobs`). @internal */
export interface StoredBlob {
  checkpointNs: string;
  channel: string;
  version: string;
  bytes: number;
}

/** @internal */
export interface ThreadHistory {
  threadId: string;
  checkpoints: CheckpointHead[];
  blobs: StoredBlob[];
}

/** A kept checkpoint whose parent is removed names its nearest kept ancestor, or none. @internal */
export interface Relink {
  head: CheckpointHead;
  parentId: string | null;
}

/** What retention removes from a thread, and keeps. @internal */
export interface ThreadPlan {
  threadId: string;
  remove: CheckpointHead[];
  relink: Relink[];
  blobs: StoredBlob[];
  /** Namespaces none of whose checkpoints is kept. */
  namespaces: string[];
  kept: number;
}
