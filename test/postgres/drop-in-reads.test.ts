/**
 * The drop-in over the official PostgresSaver reads through FastPostgresSaver's read path (fastReads, the
 * default): the same tuples as the saver's own getTuple and list, threads stored by real graph runs, in one
 * text-format statement, with the saver itself left as it was. `fastReads: false` reads through the saver's own.
 */
import type { BaseCheckpointSaver, CheckpointListOptions, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { postgresFactory } from "../support/savers/savers.js";
import { cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";
import { serviceAvailable } from "../support/servers/services.js";
import { expectSame as expectSameRead, listed } from "../support/comparisons/tuples.js";

/** The first words of the fast read statement (read-sql.ts); the official saver's starts otherwise. */
const FAST_STATEMENT = /^with cp as \(/;

const expectSame = (actual: unknown, expected: unknown) => expectSameRead(actual, expected, ["drop-in", "raw"]);

describe.runIf(await serviceAvailable("postgres"))("the drop-in over the official PostgresSaver", () => {
  let store: BaseCheckpointSaver;
  let pool: pg.Pool;
  let options: { schema: string };
  let all: CheckpointTuple[];
  /** The official saver, with the stock serializer, as users construct it. */
  const official = () => new PostgresSaver(pool, undefined, options);

  /** The texts of the statements `read` sends to the pool. */
  async function statementsOf(read: () => Promise<unknown>): Promise<string[]> {
    const texts: string[] = [];
    const original = pool.query;
    pool.query = ((...args: Parameters<pg.Pool["query"]>) => {
      const [query] = args as unknown as [string | { text: string }];
      texts.push(typeof query === "string" ? query : query.text);
      return original.apply(pool, args);
    }) as pg.Pool["query"];
    try {
      await read();
    } finally {
      pool.query = original;
    }
    return texts;
  }

  beforeAll(async () => {
    store = await postgresFactory.create();
    ({ pool, options } = store as unknown as { pool: pg.Pool; options: { schema: string } });
    const sanitized = new SanitizingCheckpointer(official());
    await cancelFirstTurn(store, "after-one-of-two-parallel-tools", "sends", "persistent-subgraph");
    await nextTurn(sanitized, "anthropic", "sends", "Thanks, and tomorrow?", "persistent-subgraph");
    await cancelFirstTurn(store, "during-llm", "root");
    await nextTurn(sanitized, "openai", "root");
    all = await listed(official(), {});
  }, 60_000);
  afterAll(() => postgresFactory.destroy(store));

  it("getTuple: the raw saver's tuples (policy off), every checkpoint and the latest of each namespace", async () => {
    const raw = official();
    const dropIn = new SanitizingCheckpointer(official(), { policy: "off" });
    const configs: RunnableConfig[] = all.map((t) => t.config);
    for (const { thread_id, checkpoint_ns } of new Set(all.map((t) => t.config.configurable!))) {
      configs.push({ configurable: { thread_id, checkpoint_ns } }, { configurable: { thread_id } });
    }
    configs.push({ configurable: { thread_id: "missing" } });
    expect(all.length).toBeGreaterThan(10);
    for (const config of configs) expectSame(await dropIn.getTuple(config), await raw.getTuple(config));
  });

  it("list: the raw saver's tuples (policy off), with filters, before and limit", async () => {
    const raw = official();
    const dropIn = new SanitizingCheckpointer(official(), { policy: "off" });
    const middle = all.filter((t) => t.config.configurable!.thread_id === "root").at(3)!.config;
    const queries: [RunnableConfig, CheckpointListOptions?][] = [
      [{}],
      [{ configurable: { thread_id: "sends" } }],
      [{ configurable: { thread_id: "sends", checkpoint_ns: "" } }],
      [{}, { filter: { source: "input" }, limit: 3 }],
      [{ configurable: { thread_id: "root" } }, { before: middle, limit: 2 }],
    ];
    for (const [config, listOptions] of queries) {
      const expected = await listed(raw, config, listOptions);
      expect(expected.length).toBeGreaterThan(0);
      expectSame(await listed(dropIn, config, listOptions), expected);
    }
  });

  it("repairs as it does with fastReads off", async () => {
    const fast = new SanitizingCheckpointer(official());
    const own = new SanitizingCheckpointer(official(), { fastReads: false });
    for (const { config } of all) expectSame(await fast.getTuple(config), await own.getTuple(config));
    expectSame(await listed(fast, {}), await listed(own, {}));
  });

  it("reads in the fast statement, and leaves the saver's own reads as they were", async () => {
    const saver = official();
    const dropIn = new SanitizingCheckpointer(saver);
    const config = { configurable: { thread_id: "sends" } };
    const fast = await statementsOf(async () => {
      await dropIn.getTuple(config);
      await listed(dropIn, config);
    });
    expect(fast).toHaveLength(2);
    expect(fast.every((text) => FAST_STATEMENT.test(text))).toBe(true);
    // Nothing set on the saver but the serde: an unwrapped graph sharing it reads through its own statement.
    expect(Object.keys(saver).filter((key) => !Object.keys(official()).includes(key))).toEqual([]);
    expect(Object.hasOwn(saver, "getTuple") || Object.hasOwn(saver, "list")).toBe(false);
    const own = await statementsOf(() => saver.getTuple(config));
    expect(own.some((text) => FAST_STATEMENT.test(text))).toBe(false);
  });

  it("with fastReads off, reads through the saver's own getTuple and list", async () => {
    const dropIn = new SanitizingCheckpointer(official(), { fastReads: false });
    const config = { configurable: { thread_id: "sends" } };
    const texts = await statementsOf(async () => {
      await dropIn.getTuple(config);
      await listed(dropIn, config);
    });
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.some((text) => FAST_STATEMENT.test(text))).toBe(false);
  });

  it("reads a subclass, even one named PostgresSaver, through its own getTuple", async () => {
    const Official = PostgresSaver;
    const Subclass = class PostgresSaver extends Official {};
    const dropIn = new SanitizingCheckpointer(new Subclass(pool, undefined, options));
    const texts = await statementsOf(() => dropIn.getTuple({ configurable: { thread_id: "sends" } }));
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.some((text) => FAST_STATEMENT.test(text))).toBe(false);
  });
});
