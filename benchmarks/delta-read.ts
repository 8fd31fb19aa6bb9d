/**
 * Read cost of a 1,000-message delta thread (`MessagesDeltaValue`), raw vs sanitized: what a graph does
 * to load it (`getState`: `getTuple`, then `getDeltaChannelHistory` and the replay of the writes since
 * the last snapshot), on a clean thread and on one whose last turn stopped before the reply.
 *
 *   npx tsx benchmarks/delta-read.ts [--quick]
 *
 * MemorySaver and SQLite always; IORedisSaver when Redis answers at REDIS_URL (default 127.0.0.1:6379).
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  END,
  MemorySaver,
  MessagesDeltaValue,
  START,
  StateGraph,
  StateSchema,
  type BaseCheckpointSaver,
} from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { Redis } from "ioredis";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SanitizingCheckpointer } from "../src/index.js";
import { IORedisSaver } from "../src/redis/index.js";
import { compare } from "./stats.js";

const quick = process.argv.includes("--quick");
const TURNS = 500; // a human message and a reply each: 1,000 messages
const PAIRS = quick ? 15 : 60;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

const graphOn = (checkpointer: BaseCheckpointSaver) =>
  new StateGraph(new StateSchema({ messages: MessagesDeltaValue }))
    .addNode("agent", (state) => ({ messages: [new AIMessage(`reply ${state.messages.length}`)] }))
    .addEdge(START, "agent")
    .addEdge("agent", END)
    .compile({ checkpointer });

/** TURNS finished turns: a human message and a reply each. */
async function seed(saver: BaseCheckpointSaver, config: RunnableConfig) {
  const graph = graphOn(saver);
  for (let i = 0; i < TURNS; i++) await graph.invoke({ messages: [new HumanMessage(`question ${i}`)] }, config);
}

/** One more turn that stops before the reply (a pending task and no interrupt, as a cancelled run leaves). */
async function stopNextTurn(saver: BaseCheckpointSaver, config: RunnableConfig) {
  const stopped = new StateGraph(new StateSchema({ messages: MessagesDeltaValue }))
    .addNode("agent", () => ({}))
    .addEdge(START, "agent")
    .compile({ checkpointer: saver, interruptBefore: ["agent"] });
  await stopped.invoke({ messages: [new HumanMessage("never answered")] }, config);
}

/**
 * The sanitizer's own work on a read (rebuilding the list and judging or repairing it), without storage
 * or deserialization: the reads go to a saver that hands back what `saver` returned, already loaded.
 */
async function ownCost(saver: BaseCheckpointSaver, config: RunnableConfig): Promise<number> {
  const tuple = (await saver.getTuple(config))!;
  const options = { config: tuple.config, channels: ["messages"] };
  const histories = await saver.getDeltaChannelHistory(options);
  const loaded = Object.assign(new MemorySaver(), {
    getTuple: async () => tuple,
    getDeltaChannelHistory: async () => histories,
  });
  const sanitized = new SanitizingCheckpointer(loaded);
  const read = async (s: BaseCheckpointSaver) => {
    await s.getTuple(config);
    await s.getDeltaChannelHistory(options);
  };
  const result = await compare(
    () => read(loaded),
    () => read(sanitized),
    PAIRS * 10,
  );
  return result.sanitizedMs - result.rawMs;
}

async function redisAvailable(): Promise<boolean> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500 });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function backends(): Promise<{ name: string; saver: BaseCheckpointSaver; close: () => Promise<void> }[]> {
  const dir = mkdtempSync(join(tmpdir(), "delta-read-"));
  const sqlite = SqliteSaver.fromConnString(join(dir, "bench.sqlite"));
  const list = [
    { name: "MemorySaver", saver: new MemorySaver() as BaseCheckpointSaver, close: async () => {} },
    {
      name: "SQLite",
      saver: sqlite,
      close: async () => (sqlite.db.close(), rmSync(dir, { recursive: true, force: true })),
    },
  ];
  if (await redisAvailable()) {
    const client = new Redis(REDIS_URL);
    const keyPrefix = `delta-read-bench-${process.pid}`;
    const saver = new IORedisSaver(client, { keyPrefix });
    const close = async () => {
      for await (const keys of client.scanStream({ match: `${keyPrefix}:*`, count: 500 })) {
        if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
      }
      await client.quit();
    };
    list.push({ name: "IORedisSaver", saver, close });
  }
  return list;
}

const rows: string[] = [];
for (const { name, saver, close } of await backends()) {
  try {
    const config = { configurable: { thread_id: "bench" } };
    await seed(saver, config);
    const raw = graphOn(saver);
    const sanitized = graphOn(new SanitizingCheckpointer(saver));
    for (const thread of ["clean", "broken tail"]) {
      if (thread === "broken tail") await stopNextTurn(saver, config);
      const size = ((await raw.getState(config)).values.messages as unknown[]).length;
      const repairedSize = ((await sanitized.getState(config)).values.messages as unknown[]).length;
      const result = await compare(
        () => raw.getState(config),
        () => sanitized.getState(config),
        PAIRS,
      );
      const own = await ownCost(saver, config);
      rows.push(
        `| ${name} | ${thread} | ${size} → ${repairedSize} | ` +
          `${result.rawMs.toFixed(1)} ms | ${result.sanitizedMs.toFixed(1)} ms | ` +
          `${result.ratio.toFixed(3)} (${result.spread[0].toFixed(3)}–${result.spread[1].toFixed(3)}) | ` +
          `${own.toFixed(2)} ms (${((own / result.rawMs) * 100).toFixed(1)}%) |`,
      );
    }
  } finally {
    await close();
  }
}

console.log(`getState of a ${TURNS * 2}-message MessagesDeltaValue thread, ${PAIRS} interleaved pairs (medians)\n`);
console.log("| backend | thread | messages raw → read | raw | sanitized | ratio (IQR) | sanitizer's own work |");
console.log("|---|---|---|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
