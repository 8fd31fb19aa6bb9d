/** What retention needs of a store: its threads a page at a time, their histories, and removal, each thread whole. */
import type { ThreadHistory, ThreadPlan } from "./history.js";

/** @internal */
export interface ThreadIdListing {
  /** In the store's own order, so `after` continues a stopped run. */
  pages: AsyncIterable<string[]>;
  /** `undefined` when the store cannot tell cheaply; only for progress. */
  total: Promise<number | undefined>;
}

/** @internal */
export interface RetentionStore {
  /** The store, with no password. */
  description: string;
  threads(filter: { threadId?: string; after?: string }): ThreadIdListing;
  /** In the order of `threadIds`; a thread with no checkpoint has none. */
  read(threadIds: readonly string[]): Promise<ThreadHistory[]>;
  /**
   * Removes what the plans say and relinks what they keep. Each thread changes at once or not at all (one
   * transaction, or one MULTI on Redis), so a process killed midway leaves every thread readable.
   */
  apply(plans: readonly ThreadPlan[]): Promise<void>;
}

/** A saver of this package hands `prune` its store under this key. @internal */
export const RETENTION_STORE = Symbol.for("langgraph-checkpoint-sanitizer.retention-store");

/** @internal */
export interface WithRetentionStore {
  [RETENTION_STORE](): RetentionStore;
}

/** @internal */
export const PAGE = 500;
