/**
 * FastPostgresSaver reads what the official PostgresSaver reads: threads
 * stored by real graph runs (cancelled turns, subgraph namespaces, pending
 * writes and sends, a fork, a pending interrupt, values of every serde type),
 * read by both over the same tables, through every getTuple and list query
 * shape, deep-equal (same classes, same fields, same order of writes).
 */
import { type AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { Annotation, END, START, StateGraph, interrupt, type BaseCheckpointSaver } from "@langchain/langgraph";
import type { CheckpointListOptions, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FastJsonPlusSerializer, SanitizingCheckpointer } from "../../src/index.js";
import { FastPostgresSaver } from "../../src/postgres/index.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { postgresFactory } from "../support/savers/savers.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel, cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";
import { serviceAvailable } from "../support/servers/services.js";
import { expectSame as expectSameRead, listed } from "../support/comparisons/tuples.js";

/** A finished conversation, then a fork from where the first turn's tools were about to run. */
async function forkedConversation(saver: BaseCheckpointSaver, thread_id: string) {
  const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
  const graph = reactGraph({ model: agentModel("anthropic"), tools }).compile(saver);
  const config = { configurable: { thread_id } };
  await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
  await graph.invoke({ messages: [new HumanMessage("And tomorrow?")] }, config);
  const history = [];
  for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
  const target = history.reverse().find((s) => s.next.includes("tools"))!;
  const calls = (target.values.messages as AIMessage[]).at(-1)!.tool_calls!;
  const results = calls.map(
    (c) => new ToolMessage({ content: "edited by a human", tool_call_id: c.id!, name: c.name }),
  );
  await graph.invoke(null, await graph.updateState(target.config, { messages: results }, "tools"));
}

/** A run paused in interrupt(), with channels of the serde's other types: bytes, a Set, non-ASCII text. */
async function pendingInterrupt(saver: BaseCheckpointSaver, thread_id: string) {
  const State = Annotation.Root({
    bytes: Annotation<Uint8Array>,
    tags: Annotation<Set<string>>,
    text: Annotation<string>,
  });
  const graph = new StateGraph(State)
    .addNode("prepare", () => ({
      bytes: new Uint8Array([0, 128, 255, 10]),
      tags: new Set(["a", "b"]),
      text: "né 🙂 \u0000 \ud800",
    }))
    .addNode("review", () => ({ text: interrupt({ question: "approve?" }) as string }))
    .addEdge(START, "prepare")
    .addEdge("prepare", "review")
    .addEdge("review", END)
    .compile({ checkpointer: saver });
  await graph.invoke({ text: "start" }, { configurable: { thread_id } });
}

const THREADS = ["cancelled-sends", "cancelled-subgraph", "cancelled-root", "forked", "interrupted"] as const;

async function storeThreads(saver: BaseCheckpointSaver) {
  const sanitized = new SanitizingCheckpointer(saver);
  await cancelFirstTurn(saver, "after-one-of-two-parallel-tools", "cancelled-sends", "persistent-subgraph");
  await nextTurn(sanitized, "anthropic", "cancelled-sends", "Thanks, and tomorrow?", "persistent-subgraph");
  await cancelFirstTurn(saver, "during-tools", "cancelled-subgraph", "subgraph");
  await nextTurn(sanitized, "openai", "cancelled-subgraph", "Thanks, and tomorrow?", "subgraph");
  await cancelFirstTurn(saver, "during-llm", "cancelled-root");
  await nextTurn(sanitized, "openai", "cancelled-root");
  await forkedConversation(saver, "forked");
  await pendingInterrupt(saver, "interrupted");
}

const expectSame = (actual: unknown, expected: unknown) => expectSameRead(actual, expected, ["fast", "official"]);

describe.runIf(await serviceAvailable("postgres"))("FastPostgresSaver reads what PostgresSaver reads", () => {
  let store: BaseCheckpointSaver;
  let official: PostgresSaver;
  let fast: FastPostgresSaver;
  let all: CheckpointTuple[];

  beforeAll(async () => {
    store = await postgresFactory.create();
    await storeThreads(store);
    const { pool, options } = store as unknown as { pool: pg.Pool; options: { schema: string } };
    official = new PostgresSaver(pool, undefined, options); // the stock serializer, as users have it
    fast = new FastPostgresSaver(pool, undefined, options); // FastJsonPlusSerializer by default
    all = await listed(official, {});
  }, 60_000);
  afterAll(() => postgresFactory.destroy(store));

  it("stored the shapes under test", () => {
    expect(fast.serde).toBeInstanceOf(FastJsonPlusSerializer);
    expect(new Set(all.map((t) => t.config.configurable!.thread_id))).toEqual(new Set(THREADS));
    expect(new Set(all.map((t) => t.config.configurable!.checkpoint_ns.split(":")[0]))).toEqual(
      new Set(["", "assistant"]),
    );
    expect(all.some((t) => t.pendingWrites!.some(([, channel]) => channel === "__pregel_tasks"))).toBe(true);
    expect(all.some((t) => t.pendingWrites!.some(([, channel]) => channel === "__interrupt__"))).toBe(true);
    expect(all.some((t) => t.metadata?.source === "update")).toBe(true);
    expect(all.some((t) => t.checkpoint.channel_values.bytes instanceof Uint8Array)).toBe(true);
  });

  it("getTuple: every checkpoint by id, the latest of every thread and namespace, and a missing one", async () => {
    const configs: RunnableConfig[] = all.map((t) => t.config);
    for (const { thread_id, checkpoint_ns } of new Set(all.map((t) => t.config.configurable!))) {
      configs.push({ configurable: { thread_id, checkpoint_ns } }, { configurable: { thread_id } });
    }
    configs.push(
      { configurable: { thread_id: "missing" } },
      { configurable: { thread_id: "forked", checkpoint_id: "missing" } },
    );
    for (const config of configs) expectSame(await fast.getTuple(config), await official.getTuple(config));
  });

  const middle = () => all.filter((t) => t.config.configurable!.thread_id === "cancelled-root").at(3)!.config;
  /** Each query as [config, options], built once the threads are stored. */
  const LISTS: [string, () => [RunnableConfig, CheckpointListOptions?]][] = [
    ["every thread", () => [{}]],
    ["one thread, all namespaces", () => [{ configurable: { thread_id: "cancelled-sends" } }]],
    ["one thread, root namespace", () => [{ configurable: { thread_id: "cancelled-sends", checkpoint_ns: "" } }]],
    [
      "one thread, subgraph namespace",
      () => [{ configurable: { thread_id: "cancelled-sends", checkpoint_ns: "assistant" } }],
    ],
    ["one checkpoint id", () => [middle()]],
    ["a metadata filter", () => [{ configurable: { thread_id: "forked" } }, { filter: { source: "update" } }]],
    ["a filter across threads", () => [{}, { filter: { source: "loop", step: 2 } }]],
    ["before", () => [{ configurable: { thread_id: "cancelled-root" } }, { before: middle() }]],
    ["limit", () => [{ configurable: { thread_id: "cancelled-subgraph" } }, { limit: 3 }]],
    ["before and limit", () => [{ configurable: { thread_id: "cancelled-root" } }, { before: middle(), limit: 2 }]],
    ["filter and limit", () => [{}, { filter: { source: "input" }, limit: 4 }]],
  ];
  it.each(LISTS)("list: %s", async (_, query) => {
    const [config, options] = query();
    const expected = await listed(official, config, options);
    expect(expected.length).toBeGreaterThan(0);
    expectSame(await listed(fast, config, options), expected);
  });

  it("reads in one statement per getTuple or list", async () => {
    const { pool } = store as unknown as { pool: pg.Pool };
    const original = pool.query;
    let statements = 0;
    pool.query = ((...args: Parameters<pg.Pool["query"]>) => (
      statements++,
      original.apply(pool, args)
    )) as pg.Pool["query"];
    try {
      await fast.getTuple({ configurable: { thread_id: "cancelled-sends" } });
      await listed(fast, {});
    } finally {
      pool.query = original;
    }
    expect(statements).toBe(2);
  });
});
