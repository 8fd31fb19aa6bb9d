/**
 * The drop-in against the raw saver: `new SanitizingCheckpointer(saver)` reads through FastJsonPlusSerializer when
 * the saver has the stock serializer, so what an app gains by wrapping is measured here, raw against drop-in in
 * interleaved pairs of one run: getTuple, `list` of a long thread as `getStateHistory` reads it, an agent turn on a
 * long thread, a `put` of a long thread, and the peak heap of a 10,000-message read. Each read is also timed against its floor: decoding and
 * `JSON.parse` of the bytes the saver hands its serializer for that read.
 */
import {
  JsonPlusSerializer,
  emptyCheckpoint,
  uuid6,
  type BaseCheckpointSaver,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
import { SanitizingCheckpointer } from "../src/index.js";
import type { SaverFactory } from "../test/support/savers/savers.js";
import { history, seed } from "./histories.js";
import { compare, median, type Comparison } from "./stats.js";

// A full collection on demand, before each peak-heap read.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

/** One backend at one size: raw getTuple, the drop-in's, and the floor, with ratios of interleaved pairs. */
export interface DropInReadRow {
  backend: string;
  size: number;
  /** Drop-in getTuple / raw getTuple. */
  getTuple: Comparison;
  /** Drop-in getTuple / decoding and JSON.parse of the bytes that read deserializes. */
  floor: Comparison;
  /** Whether the drop-in read gave the tuple the raw saver read, sanitized. */
  identical: boolean;
}

/** `list` of a thread of `checkpoints` checkpoints of `size` messages each, drop-in / raw. */
export interface DropInListRow {
  backend: string;
  checkpoints: number;
  size: number;
  list: Comparison;
}

/** The raw saver, and the drop-in over the same store: a second saver built as the app builds it, then wrapped. */
function pair(factory: SaverFactory, inner: BaseCheckpointSaver) {
  return { raw: inner, dropIn: new SanitizingCheckpointer(factory.reader(inner, inner.serde)) };
}

/** The JSON bytes a getTuple of `config` hands the serializer: what the floor decodes and parses. */
async function storedBytes(factory: SaverFactory, inner: BaseCheckpointSaver, config: object): Promise<Uint8Array[]> {
  const seen: Uint8Array[] = [];
  const stock = new JsonPlusSerializer();
  const recorder: SerializerProtocol = {
    dumpsTyped: (value) => stock.dumpsTyped(value),
    loadsTyped: (type, data) => {
      if (type === "json") seen.push(typeof data === "string" ? new TextEncoder().encode(data) : data);
      return stock.loadsTyped(type, data);
    },
  };
  await factory.reader(inner, recorder).getTuple(config);
  return seen;
}

const drain = async (iterable: AsyncIterable<unknown>) => {
  for await (const _ of iterable);
};

export async function dropInReads(
  factory: SaverFactory,
  sizes: number[],
  pairs: (size: number) => number,
): Promise<DropInReadRow[]> {
  const inner = await factory.create();
  const { raw, dropIn } = pair(factory, inner);
  const decoder = new TextDecoder();
  const rows: DropInReadRow[] = [];
  try {
    for (const size of sizes) {
      const thread = `bench-drop-in-${size}`;
      await seed(inner, thread, size, "clean");
      const config = { configurable: { thread_id: thread } };
      const stored = await storedBytes(factory, inner, config);
      const parse = async () => stored.map((bytes) => JSON.parse(decoder.decode(bytes)) as unknown);
      const getTuple = await compare(
        () => raw.getTuple(config),
        () => dropIn.getTuple(config),
        pairs(size),
      );
      const floor = await compare(parse, () => dropIn.getTuple(config), pairs(size));
      const identical = isDeepStrictEqual(
        await dropIn.getTuple(config),
        await new SanitizingCheckpointer(raw, { fastReads: false }).getTuple(config),
      );
      rows.push({ backend: factory.name, size, getTuple, floor, identical });
      process.stderr.write(
        `  ${factory.name} drop-in ${size}: x${getTuple.ratio.toFixed(3)} raw, x${floor.ratio.toFixed(2)} JSON.parse\n`,
      );
    }
  } finally {
    await factory.destroy(inner);
  }
  return rows;
}

/** Stores `count` checkpoints of `size` messages each on one thread, as a long chat thread's steps leave them. */
async function seedLongThread(saver: BaseCheckpointSaver, thread: string, count: number, size: number) {
  let config = { configurable: { thread_id: thread, checkpoint_ns: "" } };
  let version: number | undefined;
  for (let step = 0; step < count; step++) {
    const checkpoint = emptyCheckpoint();
    checkpoint.id = uuid6(step);
    version = saver.getNextVersion(version);
    checkpoint.channel_values = { messages: history(size) };
    checkpoint.channel_versions = { messages: version };
    config = (await saver.put(config, checkpoint, { source: "loop", step, parents: {} }, { messages: version })) as {
      configurable: { thread_id: string; checkpoint_ns: string };
    };
  }
}

export async function dropInList(
  factory: SaverFactory,
  count: number,
  size: number,
  pairs: number,
): Promise<DropInListRow> {
  const inner = await factory.create();
  const { raw, dropIn } = pair(factory, inner);
  try {
    const thread = `bench-drop-in-list-${count}-${size}`;
    await seedLongThread(inner, thread, count, size);
    const config = { configurable: { thread_id: thread } };
    const list = await compare(
      () => drain(raw.list(config)),
      () => drain(dropIn.list(config)),
      pairs,
    );
    process.stderr.write(`  ${factory.name} drop-in list ${count} x ${size}: x${list.ratio.toFixed(3)} raw\n`);
    return { backend: factory.name, checkpoints: count, size, list };
  } finally {
    await factory.destroy(inner);
  }
}

/**
 * `put` of one checkpoint of `size` messages (the same message objects every time, as a thread's steps write
 * them), raw against the drop-in, in interleaved pairs: the drop-in writes through FastJsonPlusSerializer, the
 * same bytes.
 */
export async function dropInPut(factory: SaverFactory, size: number, pairs: number): Promise<Comparison> {
  const inner = await factory.create();
  const { raw, dropIn } = pair(factory, inner);
  const messages = history(size);
  let step = 0;
  const put = (saver: BaseCheckpointSaver, thread: string) => async () => {
    const checkpoint = emptyCheckpoint();
    checkpoint.id = uuid6(++step);
    checkpoint.channel_values = { messages };
    checkpoint.channel_versions = { messages: step };
    const config = { configurable: { thread_id: thread, checkpoint_ns: "" } };
    await saver.put(config, checkpoint, { source: "loop", step, parents: {} }, checkpoint.channel_versions);
  };
  try {
    const puts = await compare(put(raw, "bench-drop-in-put-raw"), put(dropIn, "bench-drop-in-put"), pairs);
    process.stderr.write(`  ${factory.name} drop-in put ${size}: x${puts.ratio.toFixed(3)} raw\n`);
    return puts;
  } finally {
    await factory.destroy(inner);
  }
}

/** An app process of the agent-turn benchmark, and a way to send it a message and wait for its answer. */
async function appProcess(factory: SaverFactory, mode: "raw" | "drop-in", size: number) {
  const child = fork(
    fileURLToPath(new URL("./agent-turn-process.ts", import.meta.url)),
    [factory.name, mode, `${size}`],
    {
      execArgv: ["--import", "tsx"],
    },
  );
  const answer = () =>
    new Promise<void>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the ${mode} app process exited (${code})`));
      child.once("exit", exited);
      child.once("message", () => {
        child.off("exit", exited);
        resolve();
      });
    });
  await answer();
  return {
    turn: () => {
      const done = answer();
      child.send("turn");
      return done;
    },
    close: () => new Promise((resolve) => child.once("exit", resolve).send("close")),
  };
}

/**
 * One agent turn (the model, two parallel tools, the model) on a thread that starts at `size` messages and grows
 * by each turn, raw against the drop-in, in interleaved pairs. Each runs in its own process on its own store, as
 * an app does: in one process, the messages the stock reviver builds and those the fast one builds (objects of
 * different shapes) would meet in the same code, and slow each other's turns as no app's are. `dropInFactory`, if
 * given, is the backend the drop-in wraps instead of `factory`'s (FastPostgresSaver for the official saver's tables).
 */
export async function dropInAgentTurn(
  factory: SaverFactory,
  size: number,
  pairs: number,
  dropInFactory = factory,
): Promise<Comparison> {
  const [raw, dropIn] = await Promise.all([
    appProcess(factory, "raw", size),
    appProcess(dropInFactory, "drop-in", size),
  ]);
  try {
    const turns = await compare(raw.turn, dropIn.turn, pairs);
    process.stderr.write(
      `  ${factory.name} agent turn on ${size} messages: drop-in on ${dropInFactory.name} x${turns.ratio.toFixed(3)} raw\n`,
    );
    return turns;
  } finally {
    await Promise.all([raw.close(), dropIn.close()]);
  }
}

/**
 * The most heap a read held at once, above what was live before it, in bytes: the heap grows only between
 * collections, so its peak is the larger of what was in use right before each collection during the read and
 * what is in use when it ends (with the result still held).
 */
async function peakHeap(read: () => Promise<unknown>): Promise<number> {
  collectGarbage();
  const before = v8.getHeapStatistics().used_heap_size;
  const profiler = new v8.GCProfiler();
  profiler.start();
  const result = await read();
  const after = v8.getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  const peak = Math.max(after, ...statistics.map((gc) => gc.beforeGC.heapStatistics.usedHeapSize));
  return result === undefined ? NaN : peak - before;
}

export interface PeakHeapRow {
  backend: string;
  size: number;
  /** Median peak of the read with the stock serializer and of the drop-in's, MB. */
  rawMb: number;
  dropInMb: number;
  /** Every run's peak, MB, in the order measured. */
  rawRunsMb: number[];
  dropInRunsMb: number[];
}

/**
 * Peak heap of a getTuple of `size` messages, read with the stock serializer (whatever the saver's default) against
 * the drop-in, alternating which goes first.
 */
export async function dropInPeakHeap(factory: SaverFactory, size: number, runs: number): Promise<PeakHeapRow> {
  const inner = await factory.create();
  const raw = factory.reader(inner, new JsonPlusSerializer());
  const { dropIn } = pair(factory, inner);
  try {
    const thread = `bench-drop-in-heap-${size}`;
    await seed(inner, thread, size, "clean");
    const config = { configurable: { thread_id: thread } };
    const rawPeaks: number[] = [];
    const dropInPeaks: number[] = [];
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? [raw, dropIn] : [dropIn, raw];
      for (const saver of order)
        (saver === raw ? rawPeaks : dropInPeaks).push(await peakHeap(() => saver.getTuple(config)));
    }
    const mb = (bytes: number) => bytes / 2 ** 20;
    const row = {
      backend: factory.name,
      size,
      rawMb: mb(median(rawPeaks)),
      dropInMb: mb(median(dropInPeaks)),
      rawRunsMb: rawPeaks.map(mb),
      dropInRunsMb: dropInPeaks.map(mb),
    };
    const each = (peaks: number[]) => peaks.map((p) => mb(p).toFixed(1)).join(", ");
    process.stderr.write(
      `  ${factory.name} peak heap ${size}: raw ${row.rawMb.toFixed(1)} MB (${each(rawPeaks)}), drop-in ${row.dropInMb.toFixed(1)} MB (${each(dropInPeaks)})\n`,
    );
    return row;
  } finally {
    await factory.destroy(inner);
  }
}
