// prune's surface: where it works (our savers, the official ones, through the sanitizer) and where it says it does
// not, its options checked before the store is touched, the dry run, the age, the thread filters and the signal.
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { afterAll, describe, expect, it } from "vitest";
import {
  InvalidOptionError,
  PruneNotSupportedError,
  SanitizingCheckpointer,
  prune,
  type PruneOptions,
  type PrunedThread,
} from "../../src/index.js";
import { type FastPostgresSaver } from "../../src/postgres/index.js";
import { IORedisSaver } from "../../src/redis/index.js";
import { Redis } from "ioredis";
import { nextTurn } from "../support/graphs/scenarios.js";
import { inMemoryTracerProvider } from "../support/telemetry.js";
import { hasRedisBinary, startRedis } from "../support/servers/redis-servers.js";
import {
  fastPostgresFactory,
  postgresFactory,
  redisFactory,
  saverFactories,
  sqliteFactory,
  type SaverFactory,
} from "../support/savers/savers.js";

/** The checkpoint ids of every thread, by thread. */
async function ids(saver: BaseCheckpointSaver): Promise<Record<string, string[]>> {
  const byThread: Record<string, string[]> = {};
  for await (const { config } of saver.list({})) {
    const { thread_id, checkpoint_id } = config.configurable!;
    (byThread[thread_id] ??= []).push(checkpoint_id);
  }
  return byThread;
}

const opened: [BaseCheckpointSaver, SaverFactory][] = [];
afterAll(() => Promise.all(opened.map(([saver, factory]) => factory.destroy(saver))));

/** Checkpoints in each finished thread of {@link store}: two turns of 3 (input, the model's step, the end). */
const PER_THREAD = 6;

/** A store of `factory` with three finished threads of two turns each. */
async function store(factory: SaverFactory = sqliteFactory) {
  const saver = await factory.create();
  opened.push([saver, factory]);
  for (const thread of ["a", "b", "c"]) {
    await nextTurn(saver, "anthropic", thread);
    await nextTurn(saver, "anthropic", thread, "And the day after?");
  }
  return saver;
}

describe("where prune works", () => {
  it("through a SanitizingCheckpointer, on the saver it wraps", async () => {
    const saver = await store();
    const report = await new SanitizingCheckpointer(saver).prune({ keepLast: 2 });
    expect(report).toMatchObject({ scanned: 3, pruned: 3, kept: 6, removed: { checkpoints: 3 * (PER_THREAD - 2) } });
    expect(Object.values(await ids(saver)).map((list) => list.length)).toEqual([2, 2, 2]);
  });

  const available = new Set(saverFactories.map((f) => f.name));
  it.runIf(available.has(redisFactory.name))("as IORedisSaver's own method", async () => {
    const saver = (await store(redisFactory)) as IORedisSaver;
    const report = await saver.prune({ keepLast: 1, threadId: "b" });
    expect(report).toMatchObject({ scanned: 1, removed: { checkpoints: PER_THREAD - 1 } });
    expect((await ids(saver)).b).toHaveLength(1);
  });

  it.runIf(available.has(postgresFactory.name))("as FastPostgresSaver's own method", async () => {
    const saver = (await store(fastPostgresFactory)) as FastPostgresSaver;
    const report = await saver.prune({ keepLast: 1, threadId: "b" });
    expect(report).toMatchObject({ scanned: 1, removed: { checkpoints: PER_THREAD - 1 } });
    expect((await ids(saver)).b).toHaveLength(1);
  });

  it("nowhere else: the error names the saver, also inside a SanitizingCheckpointer", async () => {
    const memory = prune(new MemorySaver(), { keepLast: 1 });
    await expect(memory).rejects.toBeInstanceOf(PruneNotSupportedError);
    await expect(memory).rejects.toThrow(/from MemorySaver: .*deleteThread\(\) frees one/);
    class MyStore extends MemorySaver {}
    await expect(new SanitizingCheckpointer(new MyStore()).prune({ keepLast: 1 })).rejects.toMatchObject({
      name: "PruneNotSupportedError",
      saver: "MyStore",
    });
  });
});

describe.runIf(hasRedisBinary())("prune on a Redis that refuses scripts", () => {
  it("reads the values' sizes field by field, to the same report, and prunes alike", async () => {
    const server = await startRedis();
    const client = new Redis(server.url);
    try {
      const seeded = new IORedisSaver(client, { keyPrefix: "app" });
      for (const thread of ["a", "b"]) {
        await nextTurn(seeded, "anthropic", thread);
        await nextTurn(seeded, "anthropic", thread, "And the day after?");
      }
      const scripted = await new IORedisSaver(client, { keyPrefix: "app" }).prune({ keepLast: 1, dryRun: true });
      await client.call("ACL", "SETUSER", "default", "-@scripting");
      await expect(client.eval("return 1", 0)).rejects.toThrow(/NOPERM/);
      const saver = new IORedisSaver(client, { keyPrefix: "app" });
      expect(await saver.prune({ keepLast: 1, dryRun: true })).toEqual(scripted);
      expect(scripted.removed.blobs).toBeGreaterThan(0);
      await saver.prune({ keepLast: 1 });
      expect(Object.values(await ids(saver)).map((list) => list.length)).toEqual([1, 1]);
    } finally {
      client.disconnect();
      await server.close();
    }
  });
});

describe("prune's options", () => {
  it.each<[string, PruneOptions]>([
    ["keepLast", {}],
    ["keepLast", { keepLast: 0 }],
    ["keepLast", { keepLast: 2.5 }],
    ["olderThan", { olderThan: "30 days" }],
    ["olderThan", { olderThan: -1 }],
    ["threadId", { keepLast: 1, threadId: 7 as never }],
    ["dryRun", { keepLast: 1, dryRun: "yes" as never }],
    ["onThread", { keepLast: 1, onThread: "log" as never }],
    ["signal", { keepLast: 1, signal: {} as never }],
  ])("%s: %j fails with an InvalidOptionError naming it, the store untouched", async (option, options) => {
    const touched: string[] = [];
    const saver = new Proxy(new MemorySaver(), {
      get: (target, key) => (touched.push(String(key)), Reflect.get(target, key)),
    });
    await expect(prune(saver, options)).rejects.toMatchObject({ name: "InvalidOptionError", option });
    await expect(prune(saver, options)).rejects.toBeInstanceOf(InvalidOptionError);
    expect(touched).toEqual([]);
  });
});

describe("prune on a store", () => {
  it("as a dry run, removes nothing and reports what the same prune then removes", async () => {
    const saver = await store();
    const before = await ids(saver);
    const dry = await prune(saver, { keepLast: 3, dryRun: true });
    expect(await ids(saver)).toEqual(before);
    const applied = await prune(saver, { keepLast: 3 });
    expect({ ...dry, dryRun: false }).toEqual(applied);
    expect(applied.removed.checkpoints).toBe(3 * (PER_THREAD - 3));
    expect(applied.removed.writes).toBeGreaterThan(0);
    expect(applied.removed.bytes).toBeGreaterThan(0);
    expect(await prune(saver, { keepLast: 3 })).toMatchObject({ pruned: 0, removed: { checkpoints: 0 } });
  });

  it("olderThan removes what is older, with keepLast what is past both, and never a thread's newest", async () => {
    const saver = await store();
    expect((await prune(saver, { olderThan: "1h", dryRun: true })).removed.checkpoints).toBe(0);
    expect((await prune(saver, { olderThan: "1h", keepLast: 1, dryRun: true })).removed.checkpoints).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await prune(saver, { olderThan: 10, dryRun: true })).removed.checkpoints).toBe(3 * (PER_THREAD - 1));
    expect((await prune(saver, { olderThan: 10, keepLast: 4 })).removed.checkpoints).toBe(3 * (PER_THREAD - 4));
    expect(Object.values(await ids(saver)).map((list) => list.length)).toEqual([4, 4, 4]);
  });

  it("takes one thread, or the threads after one, and streams the threads to onThread", async () => {
    const saver = await store();
    expect((await prune(saver, { keepLast: 1, threadId: "b", dryRun: true })).threads.map((t) => t.threadId)).toEqual([
      "b",
    ]);
    const streamed: PrunedThread[] = [];
    const report = await prune(saver, { keepLast: 1, after: "a", dryRun: true, onThread: (t) => streamed.push(t) });
    expect(streamed.map((t) => t.threadId)).toEqual(["b", "c"]);
    expect(report.threads).toEqual([]);
    expect(report.scanned).toBe(2);
  });

  it("stops at a signal after the batches under way, and says where to continue", async () => {
    const saver = await store();
    const stop = new AbortController();
    stop.abort("SIGINT");
    const progress: number[] = [];
    const report = await prune(saver, {
      keepLast: 1,
      signal: stop.signal,
      onProgress: (p) => progress.push(p.scanned),
    });
    expect(report.stopped).toEqual({ signal: "SIGINT", after: null });
    expect(report.scanned).toBe(0);
    expect(Object.values(await ids(saver)).map((list) => list.length)).toEqual([PER_THREAD, PER_THREAD, PER_THREAD]);
    expect(progress).toEqual([]);
    expect((await prune(saver, { keepLast: 1, onProgress: (p) => progress.push(p.scanned) })).scanned).toBe(3);
    expect(progress).toEqual([3]);
  });
});

describe("a span per batch of threads", () => {
  it("with its counts, through the wrapper's telemetry; a batch that fails carries the error", async () => {
    const traces = inMemoryTracerProvider();
    const saver = await store();
    await new SanitizingCheckpointer(saver, { telemetry: { tracerProvider: traces.provider } }).prune({ keepLast: 2 });
    const [span] = traces.spans().filter((s) => s.name === "checkpoint_sanitizer.prune");
    expect(span!.attributes).toEqual({
      "checkpoint_sanitizer.operation": "prune",
      "checkpoint_sanitizer.prune.threads": 3,
      "checkpoint_sanitizer.prune.dry_run": false,
      "checkpoint_sanitizer.prune.checkpoints": 3 * (PER_THREAD - 2),
      "checkpoint_sanitizer.prune.writes": expect.any(Number),
      "checkpoint_sanitizer.prune.bytes": expect.any(Number),
    });
    // The store refuses the batch's removal: the batch fails, and its span says so.
    const db = (saver as unknown as { db: { exec(sql: string): void } }).db;
    db.exec("CREATE TRIGGER refuse BEFORE DELETE ON checkpoints BEGIN SELECT RAISE(ABORT, 'read-only store'); END");
    const refused = prune(saver, { keepLast: 1, telemetry: { tracerProvider: traces.provider } });
    await expect(refused).rejects.toThrow("read-only store");
    const failed = traces
      .spans()
      .filter((s) => s.name === "checkpoint_sanitizer.prune")
      .at(-1)!;
    expect(failed.status.code).toBe(2);
    expect(failed.events.map((e) => e.name)).toContain("exception");
    expect(traces.spans().filter((s) => s.name === "checkpoint_sanitizer.prune")).toHaveLength(2);
    await traces.shutdown();
  });
});
