/**
 * What the doctor needs of a checkpoint store: its saver, the (thread, namespace) pairs it holds, a page at a time
 * (so a store of any size is scanned without holding it in memory), and how to close it. One adapter per store
 * lives in `stores/`.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** One thread's checkpoint history in one namespace. */
export interface ThreadRef {
  threadId: string;
  checkpointNs: string;
}

/** An opened store: the saver, what it holds, and how to close it. */
export interface OpenStore {
  description: string;
  saver: BaseCheckpointSaver;
  threads(filter: { threadId?: string; checkpointNs?: string }): AsyncIterable<ThreadRef>;
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

/** Loads an optional dependency of the CLI, with a clear message when it is not installed. */
export async function loadOptional<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch {
    throw new DoctorStoreError(`${name} is not installed: npm install ${name}`);
  }
}

/** Keyset pagination over (thread, namespace) pairs: each page starts after the last pair of the previous one. */
export async function* pages(fetch: (after: ThreadRef | null) => Promise<ThreadRef[]>): AsyncGenerator<ThreadRef> {
  let after: ThreadRef | null = null;
  for (;;) {
    const page = await fetch(after);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!;
  }
}
