/**
 * What the doctor needs of a checkpoint store: its saver, the (thread, namespace) pairs it holds in the report's
 * order, a page at a time (so a store of any size is scanned without holding it in memory), optionally a batch
 * read of their latest checkpoints, and how to close it. One adapter per store lives in `stores/`.
 */
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";

/** One thread's checkpoint history in one namespace. */
export interface ThreadRef {
  threadId: string;
  checkpointNs: string;
}

/** Which pairs to list: one thread or namespace, and only those after `after` in the report's order. */
export interface ThreadFilter {
  threadId?: string;
  checkpointNs?: string;
  after?: ThreadRef;
}

/** The pairs a filter selects, in the report's order, and how many there are (or an estimate). */
export interface ThreadListing {
  pages: AsyncIterable<ThreadRef[]>;
  /** Resolves to the number of pairs, or `undefined` when the store cannot tell cheaply. */
  total: Promise<number | undefined>;
}

/** An opened store: the saver, what it holds, and how to close it. */
export interface OpenStore {
  description: string;
  saver: BaseCheckpointSaver;
  /** The pairs `filter` selects, sorted by namespace, then thread id, in the store's own string order. */
  threads(filter: ThreadFilter): ThreadListing;
  /**
   * The latest checkpoint of each of `refs`, as the saver's `getTuple` returns it, in one read. Stores without
   * it are read one `getTuple` per thread, concurrently.
   */
  latest?(refs: readonly ThreadRef[]): Promise<(CheckpointTuple | undefined)[]>;
  close(): Promise<void>;
}

/** How a store is opened: read-only for a dry run, so scanning never writes (not even a journal-mode switch). */
export interface OpenOptions {
  writable: boolean;
}

/** The command line is wrong: reported as one line followed by the usage, exit code 2. */
export class DoctorUsageError extends Error {
  override name = "DoctorUsageError";
}

/** The store cannot be used (unreachable, not a LangGraph store, a driver missing): one line saying why, exit code 2. */
export class DoctorStoreError extends Error {
  override name = "DoctorStoreError";
}

/** Thread namespaces per page of a listing. */
export const PAGE = 500;

/** The report's order: namespace, then thread id (UTF-16 code units, as JavaScript compares strings). */
export const compareRefs = (a: ThreadRef, b: ThreadRef): number =>
  a.checkpointNs < b.checkpointNs
    ? -1
    : a.checkpointNs > b.checkpointNs
      ? 1
      : a.threadId < b.threadId
        ? -1
        : a.threadId > b.threadId
          ? 1
          : 0;

/** Loads an optional dependency of the CLI, with a clear message when it is not installed. */
export async function loadOptional<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch {
    throw new DoctorStoreError(`${name} is not installed: npm install ${name}`);
  }
}

/** Keyset pagination over (thread, namespace) pairs: each page starts after the last pair of the previous one. */
export async function* pages(
  fetch: (after: ThreadRef | undefined) => Promise<ThreadRef[]> | ThreadRef[],
  first?: ThreadRef,
): AsyncGenerator<ThreadRef[]> {
  let after = first;
  for (;;) {
    const page = await fetch(after);
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!;
  }
}
