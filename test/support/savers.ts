/**
 * The savers the tests run against, each a fresh, isolated store, and a way
 * to close it. Backends that need a server join this list in their own module.
 */
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterEach } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SaverFactory {
  /** The name the conformance suite knows the raw saver by (it skips some tests by name). */
  name: string;
  create(): Promise<BaseCheckpointSaver>;
  destroy(saver: BaseCheckpointSaver): Promise<void>;
}

const sqliteFiles = new Map<BaseCheckpointSaver, string>();

export const memoryFactory: SaverFactory = {
  name: "MemorySaver",
  create: async () => new MemorySaver(),
  destroy: async () => {},
};

export const sqliteFactory: SaverFactory = {
  name: "@langchain/langgraph-checkpoint-sqlite",
  create: async () => {
    const dir = mkdtempSync(join(tmpdir(), "sanitizer-sqlite-"));
    const saver = SqliteSaver.fromConnString(join(dir, "checkpoints.sqlite"));
    sqliteFiles.set(saver, dir);
    return saver;
  },
  destroy: async (saver) => {
    (saver as SqliteSaver).db.close();
    const dir = sqliteFiles.get(saver);
    if (dir) rmSync(dir, { recursive: true, force: true });
    sqliteFiles.delete(saver);
  },
};

/** Every backend available on this machine. */
export const saverFactories: SaverFactory[] = [memoryFactory, sqliteFactory];

/**
 * For use inside a `describe`: returns a function that opens a fresh saver
 * from `factory`; every saver opened in a test is destroyed after it.
 */
export function saverPerTest(factory: SaverFactory): () => Promise<BaseCheckpointSaver> {
  const opened: BaseCheckpointSaver[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((saver) => factory.destroy(saver)));
  });
  return async () => {
    const saver = await factory.create();
    opened.push(saver);
    return saver;
  };
}
