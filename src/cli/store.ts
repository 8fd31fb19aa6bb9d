// What the doctor needs of a store, a page at a time so any size is scanned without holding it in memory.
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";

export interface ThreadRef {
  threadId: string;
  checkpointNs: string;
}

/** Only those after `after` in the report's order. */
export interface ThreadFilter {
  threadId?: string;
  checkpointNs?: string;
  after?: ThreadRef;
}

export interface ThreadListing {
  pages: AsyncIterable<ThreadRef[]>;
  /** `undefined` when the store cannot tell cheaply. */
  total: Promise<number | undefined>;
}

export interface OpenStore {
  description: string;
  saver: BaseCheckpointSaver;
  /** In the store's own string order. */
  threads(filter: ThreadFilter): ThreadListing;
  /** In one read; without it, one `getTuple` per thread, concurrently. */
  latest?(refs: readonly ThreadRef[]): Promise<(CheckpointTuple | undefined)[]>;
  close(): Promise<void>;
}

/** Read-only for a dry run: not even a journal-mode switch. */
export interface OpenOptions {
  writable: boolean;
}

/** Exit code 2, with the usage. */
export class DoctorUsageError extends Error {
  override name = "DoctorUsageError";
}

/** Unreachable, not a LangGraph store, a driver missing: exit code 2. */
export class DoctorStoreError extends Error {
  override name = "DoctorStoreError";
}

export const PAGE = 500;

/** Namespace, then thread id, in UTF-16 code units. */
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

export async function loadOptional<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch {
    throw new DoctorStoreError(`${name} is not installed: npm install ${name}`);
  }
}

/** Keyset pagination: each page starts after the last pair of the previous one. */
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
