/**
 * The embed server's thread registry: which threads exist, with their
 * metadata (the graph a thread runs). The conversation itself lives in the
 * checkpointer. This one keeps the registry in memory; a production server
 * keeps it in its own table, so threads survive a restart.
 */
import type { ThreadSaver } from "@langchain/langgraph-api/experimental/embed";

type Metadata = Record<string, unknown>;
interface StoredThread {
  thread_id: string;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
  status: "idle";
}

export class InMemoryThreadStore implements ThreadSaver {
  private readonly threads = new Map<string, StoredThread>();

  // The routes answer 404 for a missing thread; the declared type does not admit it.
  async get(id: string) {
    return this.threads.get(id) as StoredThread;
  }

  async set(id: string, { kind, metadata }: { kind: "put" | "patch"; metadata?: Metadata }) {
    const now = new Date().toISOString();
    const existing = this.threads.get(id);
    const thread: StoredThread = {
      thread_id: id,
      metadata: kind === "patch" ? { ...existing?.metadata, ...metadata } : { ...metadata },
      created_at: existing?.created_at ?? now,
      updated_at: now,
      status: "idle",
    };
    this.threads.set(id, thread);
    return thread;
  }

  async delete(id: string) {
    this.threads.delete(id);
  }

  async *search(options: {
    metadata?: Metadata;
    limit: number;
    offset: number;
    sortBy: "created_at" | "updated_at";
    sortOrder: "asc" | "desc";
  }) {
    const wanted = Object.entries(options.metadata ?? {});
    const matches = [...this.threads.values()]
      .filter((thread) => wanted.every(([key, value]) => thread.metadata[key] === value))
      .sort((a, b) => a[options.sortBy].localeCompare(b[options.sortBy]) * (options.sortOrder === "asc" ? 1 : -1));
    for (const thread of matches.slice(options.offset, options.offset + options.limit))
      yield { thread, total: matches.length };
  }
}
