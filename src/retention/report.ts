/** What `prune` removed, or would remove, from one thread. */
export interface PrunedThread {
  threadId: string;
  /** Checkpoints removed. */
  checkpoints: number;
  /** Pending writes removed (those of the removed checkpoints). */
  writes: number;
  /** Channel values removed (Postgres and Redis store them apart: those no kept checkpoint refers to). */
  blobs: number;
  /** Bytes of all of them, as the store holds them. */
  bytes: number;
  /** Subgraph namespaces removed whole, with the parent checkpoint they ran under. */
  namespaces: number;
  /** Checkpoints kept, in every namespace. */
  kept: number;
  /** Kept checkpoints whose parent went, now naming their nearest kept ancestor (or none). */
  relinked: number;
}

/** Totals over every thread scanned. */
export interface PruneTotals {
  checkpoints: number;
  writes: number;
  blobs: number;
  bytes: number;
  namespaces: number;
}

/** What `prune` did, or in a dry run would do. */
export interface PruneReport {
  /** The store, with no password. */
  store: string;
  dryRun: boolean;
  keepLast: number | undefined;
  /** Milliseconds. */
  olderThan: number | undefined;
  /** Threads read. */
  scanned: number;
  /** Threads something was (or would be) removed from. */
  pruned: number;
  removed: PruneTotals;
  /** Checkpoints kept. */
  kept: number;
  relinked: number;
  /** The threads counted in `pruned`, in the store's order; empty when `onThread` was given. */
  threads: PrunedThread[];
  /** Set when the signal stopped the run: `after` is the last thread done, where `after` continues. */
  stopped?: { signal: string; after: string | null };
}

/** Passed to `onProgress` after each batch. */
export interface PruneProgress {
  scanned: number;
  /** `undefined` when the store cannot tell cheaply. */
  total: number | undefined;
  pruned: number;
  /** Checkpoints removed so far (or that would be). */
  checkpoints: number;
}

/** @internal */
export function emptyReport(store: string, dryRun: boolean, keepLast?: number, olderThan?: number): PruneReport {
  const removed = { checkpoints: 0, writes: 0, blobs: 0, bytes: 0, namespaces: 0 };
  return { store, dryRun, keepLast, olderThan, scanned: 0, pruned: 0, removed, kept: 0, relinked: 0, threads: [] };
}

/** Adds one thread's outcome to the totals. @internal */
export function addThread(report: PruneReport, thread: PrunedThread): boolean {
  report.scanned++;
  report.kept += thread.kept;
  report.relinked += thread.relinked;
  if (thread.checkpoints + thread.blobs === 0) return false;
  report.pruned++;
  for (const key of Object.keys(report.removed) as (keyof PruneTotals)[]) report.removed[key] += thread[key];
  return true;
}
