/**
 * Threads stored by real runs, on every backend, read through FastJsonPlusSerializer
 * exactly as through the stock JsonPlusSerializer: every checkpoint, its
 * metadata and its pending writes. (IORedisSaver writes with the fast one by
 * default, the others with the stock one, so both directions are covered.)
 */
import { JsonPlusSerializer, type BaseCheckpointSaver, type CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual, inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { FastJsonPlusSerializer, SanitizingCheckpointer } from "../../src/index.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";

async function history(saver: BaseCheckpointSaver, thread: string): Promise<CheckpointTuple[]> {
  const tuples: CheckpointTuple[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: thread } })) tuples.push(tuple);
  return tuples;
}

describe.each(saverFactories)("stored threads on $name", (factory) => {
  const open = saverPerTest(factory);

  it("read the same with the fast serializer as with the stock one", async () => {
    const saver = await open();
    const thread = `serde-${randomUUID()}`;
    await cancelFirstTurn(saver, "after-one-of-two-parallel-tools", thread, "persistent-subgraph");
    await nextTurn(
      new SanitizingCheckpointer(saver),
      "anthropic",
      thread,
      "Thanks, and tomorrow?",
      "persistent-subgraph",
    );

    const stock = await history(factory.reader(saver, new JsonPlusSerializer()), thread);
    const fast = await history(factory.reader(saver, new FastJsonPlusSerializer()), thread);
    expect(stock.length).toBeGreaterThan(5);
    expect(stock.some((tuple) => (tuple.pendingWrites ?? []).length > 0)).toBe(true);
    if (!isDeepStrictEqual(fast, stock))
      expect.fail(`fast ${inspect(fast, { depth: 8 })}\nstock ${inspect(stock, { depth: 8 })}`);
  });
});
