/**
 * npm run bench [-- --quick] [-- --write-summary] [-- --postgres-only | --drop-in-only | --telemetry-only]
 *
 * What the sanitizer costs, measured against the raw savers it wraps in the
 * same run: getTuple and list on every available backend (MemorySaver, SQLite,
 * Postgres, IORedisSaver), for histories of 10 to 10,000 messages, clean and
 * broken; repairMessages alone; put through the wrapper; a whole
 * conversation; the Postgres read path (official saver, FastPostgresSaver,
 * JSON.parse); the drop-in against the raw saver (getTuple, list, an agent turn,
 * peak heap, each read against JSON.parse of its bytes); and what OpenTelemetry
 * metrics and spans add to a clean read. Prints a Markdown table and PASS/FAIL per target, and writes
 * benchmarks/results/latest.json (not checked in).
 *
 * --write-summary also rewrites the checked-in benchmarks/results/summary.{md,svg};
 * without it a run leaves the work tree clean. --postgres-only runs the
 * Postgres read path alone and prints its table; --drop-in-only, the drop-in's;
 * --telemetry-only, what the metrics and the spans add to a read.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import {
  JsonPlusSerializer,
  MemorySaver,
  type BaseCheckpointSaver,
  type CheckpointTuple,
} from "@langchain/langgraph-checkpoint";
import { mkdirSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { FastJsonPlusSerializer, SanitizingCheckpointer, repairMessages } from "../src/index.js";
import { reactGraph } from "../test/support/graphs/react-graph.js";
import {
  fastPostgresFactory,
  memoryFactory,
  postgresFactory,
  saverFactories,
  sqliteFactory,
  type SaverFactory,
} from "../test/support/savers/savers.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel } from "../test/support/graphs/scenarios.js";
import {
  dropInAgentTurn,
  dropInList,
  dropInPeakHeap,
  dropInPut,
  dropInReads,
  type DropInListRow,
  type DropInReadRow,
  type PeakHeapRow,
} from "./drop-in.js";
import { history, seed, type HistoryState } from "./histories.js";
import {
  postgresReadBenchmarks,
  postgresReadTable,
  postgresReadTarget,
  type PostgresReadRow,
} from "./postgres-read.js";
import { compare, type Comparison } from "./stats.js";
import { telemetryOverhead, tracingOverhead, type TelemetryOverhead, type TracingOverhead } from "./telemetry.js";

const quick = process.argv.includes("--quick");
const writeSummary = process.argv.includes("--write-summary");
const postgresOnly = process.argv.includes("--postgres-only");
const dropInOnly = process.argv.includes("--drop-in-only");
const telemetryOnly = process.argv.includes("--telemetry-only");
const SIZES = quick ? [10, 100, 1000] : [10, 100, 1000, 10_000];
const STATES: HistoryState[] = ["clean", "broken-tail", "broken-mid"];
const pairsFor = (size: number) => (quick ? (size >= 1000 ? 5 : 9) : size >= 10_000 ? 9 : size >= 1000 ? 31 : 41);
const TURNS = quick ? 5 : 20;

interface ReadRow {
  backend: string;
  size: number;
  state: HistoryState;
  getTuple: Comparison;
  list: Comparison;
  /** For clean histories: whether the sanitizer returned the inner tuple object itself. */
  sameTuple?: boolean;
  /** The sanitizer's own work per read, in ms (see ownCost). */
  ownMs: number;
  /** ownMs as a share of the raw getTuple time: the overhead, free of the read's own noise. */
  overhead: number;
}

/** The inner saver, remembering the last tuple its getTuple returned. */
function recording(inner: BaseCheckpointSaver) {
  const probe = Object.create(inner) as BaseCheckpointSaver & { last?: CheckpointTuple };
  probe.getTuple = async (config) => (probe.last = await inner.getTuple(config));
  return probe;
}

/**
 * The sanitizer's own work on one read, in ms: the wrapper around a saver that
 * hands back the already-loaded tuple, minus that saver alone. End-to-end
 * ratios carry the read's own noise (GC while deserializing varies by ±5% and
 * more), which hides a cost of microseconds; this isolates it.
 */
async function ownCost(
  inner: BaseCheckpointSaver,
  config: { configurable: { thread_id: string } },
  size: number,
): Promise<number> {
  const loaded = await inner.getTuple(config);
  const stub = Object.create(inner) as BaseCheckpointSaver;
  stub.getTuple = async () => loaded;
  const wrapped = new SanitizingCheckpointer(stub);
  const iterations = size >= 100_000 ? 8 : size >= 10_000 ? 100 : 1000;
  // A long warm-up: each backend's serializer builds messages of its own shapes, and the engine's code
  // re-optimizes for them; a process that uses one serializer pays that once, not per read.
  const time = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < iterations / 4; i++) await fn();
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    return (performance.now() - start) / iterations;
  };
  const base = await time(() => stub.getTuple(config));
  return Math.max(0, (await time(() => wrapped.getTuple(config))) - base);
}

/**
 * A long, heavily broken thread: 100,000 messages on MemorySaver, every tool result lost (a repair every four
 * messages), as a thread that broke on every turn before the sanitizer was installed. The wrapper's own cost per
 * read (see ownCost), and per repair.
 */
async function heavilyBrokenBenchmark() {
  const size = 100_000;
  const inner = new MemorySaver();
  const config = { configurable: { thread_id: "heavy" } };
  await seed(inner, "heavy", size, "broken-every-round");
  let repairs = 0;
  // fastReads: false, here and below where the raw side is the same saver: these time the sanitizer's own work
  // against the stock read (the drop-in's fast reads would otherwise change the raw side too).
  const counted = new SanitizingCheckpointer(inner, {
    fastReads: false,
    onRepair: (e) => (repairs += e.repairs.length),
  });
  await counted.getTuple(config);
  const rawStart = performance.now();
  await inner.getTuple(config);
  const rawMs = performance.now() - rawStart;
  const ownMs = await ownCost(inner, config, size);
  return { size, repairs, rawMs, ownMs, usPerRepair: (ownMs * 1000) / repairs };
}

async function drain(iterable: AsyncIterable<unknown>) {
  for await (const _ of iterable);
}

async function readBenchmarks(factory: SaverFactory): Promise<ReadRow[]> {
  const inner = await factory.create();
  const probe = recording(inner);
  const sanitized = new SanitizingCheckpointer(probe);
  const rows: ReadRow[] = [];
  try {
    for (const size of SIZES) {
      for (const state of STATES) {
        const thread = `bench-${state}-${size}`;
        await seed(inner, thread, size, state);
        const config = { configurable: { thread_id: thread } };
        const pairs = pairsFor(size);
        const getTuple = await compare(
          () => inner.getTuple(config),
          () => sanitized.getTuple(config),
          pairs,
        );
        const list = await compare(
          () => drain(inner.list(config, { limit: 1 })),
          () => drain(sanitized.list(config, { limit: 1 })),
          pairs,
        );
        const ownMs = await ownCost(inner, config, size);
        const row: ReadRow = {
          backend: factory.name,
          size,
          state,
          getTuple,
          list,
          ownMs,
          overhead: ownMs / getTuple.rawMs,
        };
        if (state === "clean") row.sameTuple = (await sanitized.getTuple(config)) === probe.last;
        rows.push(row);
        process.stderr.write(
          `  ${factory.name} ${state} ${size}: getTuple x${getTuple.ratio.toFixed(3)}, own ${(row.overhead * 100).toFixed(3)}%\n`,
        );
      }
    }
  } finally {
    await factory.destroy(inner);
  }
  return rows;
}

interface SerdeRow {
  backend: string;
  size: number;
  stockMs: number;
  fastMs: number;
  /** Median of the per-pair speedups stock / fast, with their interquartile range. */
  speedup: number;
  spread: [number, number];
  /** Whether both read the thread to deep-equal tuples (same classes, same fields). */
  identical: boolean;
}

/**
 * getTuple through the stock JsonPlusSerializer against FastJsonPlusSerializer:
 * two savers over one store read the same stored thread, in interleaved pairs.
 */
async function serdeBenchmarks(factory: SaverFactory): Promise<SerdeRow[]> {
  const inner = await factory.create();
  const stock = factory.reader(inner, new JsonPlusSerializer());
  const fast = factory.reader(inner, new FastJsonPlusSerializer());
  const rows: SerdeRow[] = [];
  try {
    for (const size of SIZES.filter((n) => n >= 100)) {
      const thread = `bench-serde-${size}`;
      await seed(inner, thread, size, "clean");
      const config = { configurable: { thread_id: thread } };
      const pairs = await compare(
        () => stock.getTuple(config),
        () => fast.getTuple(config),
        pairsFor(size),
      );
      const identical = isDeepStrictEqual(await fast.getTuple(config), await stock.getTuple(config));
      rows.push({
        backend: factory.name,
        size,
        stockMs: pairs.rawMs,
        fastMs: pairs.sanitizedMs,
        speedup: 1 / pairs.ratio,
        spread: [1 / pairs.spread[1], 1 / pairs.spread[0]],
        identical,
      });
      process.stderr.write(`  ${factory.name} serde ${size}: x${(1 / pairs.ratio).toFixed(1)} faster\n`);
    }
  } finally {
    await factory.destroy(inner);
  }
  return rows;
}

async function putBenchmark(factory: SaverFactory): Promise<Comparison> {
  const inner = await factory.create();
  const sanitized = new SanitizingCheckpointer(inner, { fastReads: false });
  const put = (saver: BaseCheckpointSaver) => async () => {
    const config = await seed(saver, "bench-put", 1000, "clean");
    await saver.putWrites(config, [["messages", history(4)]], "task-1", "");
  };
  try {
    return await compare(put(inner), put(sanitized), quick ? 9 : 21);
  } finally {
    await factory.destroy(inner);
  }
}

async function conversationBenchmark(factory: SaverFactory): Promise<Comparison> {
  const inner = await factory.create();
  let n = 0;
  const run = (saver: BaseCheckpointSaver) => async () => {
    const graph = reactGraph({
      model: agentModel("anthropic"),
      tools: { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT },
    }).compile(saver);
    const config = { configurable: { thread_id: `bench-conversation-${n++}` } };
    for (let turn = 0; turn < TURNS; turn++)
      await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
  };
  try {
    return await compare(run(inner), run(new SanitizingCheckpointer(inner, { fastReads: false })), quick ? 2 : 3);
  } finally {
    await factory.destroy(inner);
  }
}

/**
 * repairMessages alone, 1,000 against 10,000 messages, in interleaved pairs
 * that process the same number of messages, so GC and machine noise hit both
 * alike. `growth` compares ten distinct 1k lists with one 10k list: the same
 * 10,000 message objects in memory on both sides, so it measures how the
 * algorithm scales (10 for a perfectly linear cost). `warmGrowth` reuses one
 * 1k list ten times, which stays in cache while the 10k list does not: what a
 * machine's memory adds on top (see memoryFloor).
 */
async function engineBenchmark(state: HistoryState) {
  const smalls = Array.from({ length: 10 }, () => history(1000, state));
  const large = history(10_000, state);
  const tenSmall = (lists: BaseMessage[][]) => async () => {
    for (const list of lists) repairMessages(list);
  };
  const oneLarge = async () => void repairMessages(large);
  const runs = quick ? 31 : 101;
  for (let i = 0; i < 20; i++) {
    await tenSmall(smalls)();
    await oneLarge();
  }
  const pairs = await compare(tenSmall(smalls), oneLarge, runs);
  const warm = await compare(tenSmall(Array(10).fill(smalls[0])), oneLarge, runs);
  return {
    perSecond1k: (smalls[0]!.length * 10) / (warm.rawMs / 1000),
    perSecond10k: large.length / (pairs.sanitizedMs / 1000),
    growth: 10 * pairs.ratio,
    warmGrowth: 10 * warm.ratio,
  };
}

/**
 * The warm 1k/10k comparison for a bare loop that only reads the fields the
 * clean check reads: the growth memory alone causes once 10,000 message
 * objects no longer fit in cache. Printed beside warmGrowth.
 */
async function memoryFloor() {
  const small = history(1000);
  const large = history(10_000);
  let sink = 0;
  const scan = (list: readonly unknown[]) => {
    for (const m of list as { type: string; tool_calls?: unknown[]; content?: unknown; tool_call_id?: string }[]) {
      if (m.type === "ai") sink += (m.tool_calls?.length ?? 0) + (typeof m.content === "string" ? 1 : 0);
      else if (m.type === "tool") sink += m.tool_call_id!.length;
    }
  };
  const pairs = await compare(
    async () => {
      for (let i = 0; i < 10; i++) scan(small);
    },
    async () => scan(large),
    quick ? 31 : 101,
  );
  return sink > 0 ? 10 * pairs.ratio : NaN;
}

interface Target {
  name: string;
  value: string;
  pass: boolean;
}

const fmt = (c: Comparison) => `${c.ratio.toFixed(3)} (${c.spread[0].toFixed(3)}–${c.spread[1].toFixed(3)})`;

function chart(rows: ReadRow[]): string {
  const backends = [...new Set(rows.map((r) => r.backend))];
  const colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
  const [w, h, pad] = [640, 360, 50];
  const ratios = rows.map((r) => r.getTuple.ratio);
  const [yMin, yMax] = [Math.min(0.9, ...ratios), Math.max(1.1, ...ratios)];
  const x = (i: number) => pad + (i * (w - 2 * pad)) / Math.max(1, SIZES.length - 1);
  const y = (v: number) => h - pad - ((v - yMin) * (h - 2 * pad)) / (yMax - yMin);
  const lines = backends.flatMap((backend, b) =>
    (["clean", "broken-tail"] as const).map((state) => {
      const points = SIZES.map((size, i) => {
        const row = rows.find((r) => r.backend === backend && r.size === size && r.state === state)!;
        return `${x(i).toFixed(1)},${y(row.getTuple.ratio).toFixed(1)}`;
      }).join(" ");
      return `<polyline fill="none" stroke="${colors[b % colors.length]}" stroke-width="2" ${state === "clean" ? "" : 'stroke-dasharray="6 4"'} points="${points}"/>`;
    }),
  );
  const legend = backends.map(
    (backend, b) =>
      `<text x="${pad + 10}" y="${pad + 16 * b}" fill="${colors[b % colors.length]}" font-size="12">${backend}</text>`,
  );
  const xTicks = SIZES.map(
    (size, i) => `<text x="${x(i)}" y="${h - pad + 18}" font-size="12" text-anchor="middle">${size}</text>`,
  );
  const yTicks = [yMin, 1, yMax].map(
    (v) =>
      `<text x="${pad - 6}" y="${y(v) + 4}" font-size="12" text-anchor="end">${v.toFixed(2)}</text><line x1="${pad}" x2="${w - pad}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="${w / 2}" y="20" font-size="14" text-anchor="middle">getTuple time, sanitized / raw (solid: clean, dashed: broken tail)</text>
${yTicks.join("\n")}
${xTicks.join("\n")}
<text x="${w / 2}" y="${h - 8}" font-size="12" text-anchor="middle">messages in the thread</text>
${lines.join("\n")}
${legend.join("\n")}
</svg>
`;
}

/** The Postgres read path in quick runs too (it is the one place 10,000 messages are read then). */
const postgresReadPairs = (size: number) => (size >= 10_000 ? 5 : quick ? 9 : size >= 1000 ? 31 : 41);

interface DropInResults {
  reads: DropInReadRow[];
  lists: DropInListRow[];
  puts: Record<string, Comparison>;
  turns: Record<string, Comparison>;
  heap: PeakHeapRow[];
}

/** The drop-in's long thread for `list`, its agent turn's starting thread, and its peak-heap read. */
const DROP_IN_LIST = { checkpoints: 20, size: 1000 };
const AGENT_TURN_MESSAGES = 300;
const PEAK_HEAP_MESSAGES = 10_000;

/** The drop-in against the raw saver on every backend up, FastPostgresSaver beside the official Postgres saver. */
async function dropInBenchmarks(): Promise<DropInResults> {
  const postgresUp = saverFactories.includes(postgresFactory);
  const results: DropInResults = { reads: [], lists: [], puts: {}, turns: {}, heap: [] };
  for (const factory of [...saverFactories, ...(postgresUp ? [fastPostgresFactory] : [])]) {
    results.reads.push(
      ...(await dropInReads(
        factory,
        SIZES.filter((n) => n >= 100),
        pairsFor,
      )),
    );
    results.lists.push(await dropInList(factory, DROP_IN_LIST.checkpoints, DROP_IN_LIST.size, quick ? 5 : 15));
    results.puts[factory.name] = await dropInPut(factory, AGENT_TURN_MESSAGES, quick ? 15 : 41);
    results.heap.push(await dropInPeakHeap(factory, PEAK_HEAP_MESSAGES, quick ? 3 : 7));
  }
  const turnPairs = quick ? 9 : 31;
  for (const factory of [memoryFactory, ...(postgresUp ? [postgresFactory] : [])]) {
    results.turns[factory.name] = await dropInAgentTurn(factory, AGENT_TURN_MESSAGES, turnPairs);
  }
  if (postgresUp) {
    // What the official tables allow: the same raw turn against the drop-in over FastPostgresSaver.
    results.turns[`${postgresFactory.name}, drop-in over ${fastPostgresFactory.name}`] = await dropInAgentTurn(
      postgresFactory,
      AGENT_TURN_MESSAGES,
      turnPairs,
      fastPostgresFactory,
    );
  }
  return results;
}

/** The official saver's own queries keep its read far above JSON.parse (see benchmarks/README.md). */
const FLOOR_OUT_OF_REACH = [postgresFactory.name];

function dropInTargets({ reads, lists, turns, heap }: DropInResults): Target[] {
  const at1k = reads.filter((r) => r.size === 1000);
  const readTarget = (backend: string, max: number): Target[] =>
    at1k
      .filter((r) => r.backend === backend)
      .map((r) => ({
        name: `drop-in getTuple ≤ ${max}× raw at 1,000 messages, same result (${r.backend})`,
        value: `${r.getTuple.ratio.toFixed(3)}×, ${r.identical ? "identical" : "DIFFERENT"}`,
        pass: r.getTuple.ratio <= max && r.identical,
      }));
  return [
    ...readTarget(memoryFactory.name, 0.15),
    ...readTarget(sqliteFactory.name, 0.15),
    ...readTarget(postgresFactory.name, 0.6),
    ...lists
      .filter((r) => r.backend === memoryFactory.name || r.backend === sqliteFactory.name)
      .map((r) => ({
        name: `drop-in list of ${r.checkpoints} checkpoints × ${r.size} messages ≤ 0.2× raw (${r.backend})`,
        value: `${r.list.ratio.toFixed(3)}×`,
        pass: r.list.ratio <= 0.2,
      })),
    ...at1k
      .filter((r) => !FLOOR_OUT_OF_REACH.includes(r.backend))
      .map((r) => ({
        name: `drop-in getTuple ≤ 4× JSON.parse of its bytes at 1,000 messages (${r.backend})`,
        value: `${r.floor.ratio.toFixed(2)}×`,
        pass: r.floor.ratio <= 4,
      })),
    ...Object.entries(turns)
      .filter(([backend]) => !backend.includes(fastPostgresFactory.name))
      .map(([backend, c]) => ({
        name: `agent turn on a ${AGENT_TURN_MESSAGES}-message thread, drop-in ≤ 0.75× raw (${backend})`,
        value: `${c.ratio.toFixed(3)}×`,
        pass: c.ratio <= 0.75,
      })),
    // Within 2% of the stock read's median peak. Where the serializer's share shows (every backend but the official
    // Postgres saver), the drop-in peaks at a tenth of the stock one, so 2% hides nothing of its own. The official
    // saver's peak is its driver parsing the same rows either way, about 190 MB, and that moves by one to two MB
    // from run to run with when collections happen to fall, on either side: to the megabyte, the row passed or failed
    // by that alone.
    ...heap.map((r) => ({
      name: `peak heap of a ${PEAK_HEAP_MESSAGES}-message getTuple, drop-in ≤ the stock serializer's, within 2% (${r.backend})`,
      value: `${r.dropInMb.toFixed(1)} MB vs ${r.rawMb.toFixed(1)} MB`,
      pass: r.dropInMb <= r.rawMb * 1.02,
    })),
  ];
}

function dropInTables({ reads, lists, puts, turns, heap }: DropInResults): string[] {
  return [
    "The drop-in (`new SanitizingCheckpointer(saver)`, reading through FastJsonPlusSerializer) against the raw saver with its own serializer, and against decoding and `JSON.parse` of the bytes the read deserializes (medians of interleaved pairs, interquartile range in parentheses):",
    "",
    "| backend | messages | raw ms | drop-in ms | JSON.parse ms | drop-in / raw | drop-in / JSON.parse | same result |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
    ...reads.map(
      (r) =>
        `| ${r.backend} | ${r.size} | ${r.getTuple.rawMs.toFixed(2)} | ${r.getTuple.sanitizedMs.toFixed(2)} | ${r.floor.rawMs.toFixed(2)} | ${fmt(r.getTuple)} | ${r.floor.ratio.toFixed(2)}× (${r.floor.spread[0].toFixed(2)}–${r.floor.spread[1].toFixed(2)}) | ${r.identical ? "yes" : "NO"} |`,
    ),
    "",
    "| backend | `list` of 20 × 1,000 messages, raw ms | drop-in ms | drop-in / raw | peak heap of a 10,000-message getTuple, stock serializer / drop-in |",
    "|---|---:|---:|---:|---:|",
    ...lists.map((r) => {
      const h = heap.find((x) => x.backend === r.backend)!;
      return `| ${r.backend} | ${r.list.rawMs.toFixed(1)} | ${r.list.sanitizedMs.toFixed(1)} | ${fmt(r.list)} | ${h.rawMb.toFixed(1)} MB / ${h.dropInMb.toFixed(1)} MB |`;
    }),
    "",
    `| backend | \`put\` of a ${AGENT_TURN_MESSAGES}-message checkpoint, raw ms | drop-in ms | drop-in / raw |`,
    "|---|---:|---:|---:|",
    ...Object.entries(puts).map(
      ([backend, c]) => `| ${backend} | ${c.rawMs.toFixed(2)} | ${c.sanitizedMs.toFixed(2)} | ${fmt(c)} |`,
    ),
    "",
    `| backend | agent turn on a ${AGENT_TURN_MESSAGES}-message thread, raw ms | drop-in ms | drop-in / raw |`,
    "|---|---:|---:|---:|",
    ...Object.entries(turns).map(
      ([backend, c]) => `| ${backend} | ${c.rawMs.toFixed(1)} | ${c.sanitizedMs.toFixed(1)} | ${fmt(c)} |`,
    ),
  ];
}

async function dropInOnlyMain() {
  const results = await dropInBenchmarks();
  const targets = dropInTargets(results);
  console.log(
    [
      ...dropInTables(results),
      "",
      "| target | measured | |",
      "|---|---:|---|",
      ...targets.map((t) => `| ${t.name} | ${t.value} | ${t.pass ? "PASS" : "FAIL"} |`),
    ].join("\n"),
  );
}

function telemetryTargets(metrics: TelemetryOverhead, tracing: TracingOverhead): Target[] {
  return [
    {
      name: "OpenTelemetry metrics (SDK, in-memory exporter) add ≤ 0.1% to a clean getTuple at 1,000 messages (MemorySaver)",
      value: `${(metrics.share * 100).toFixed(3)}% (${metrics.addedUs.toFixed(1)} µs on ${metrics.offUs.toFixed(1)} µs of the wrapper's own, raw read ${metrics.rawMs.toFixed(1)} ms; without an SDK, metrics and spans: ${metrics.noSdkUs.toFixed(2)} µs)`,
      pass: metrics.share <= 0.001 && metrics.exported > 0,
    },
    {
      name: "OpenTelemetry spans (SDK, in-memory exporter) add < 2% to a clean getTuple at 1,000 messages, through the drop-in (MemorySaver)",
      value: `${(tracing.dropInShare * 100).toFixed(3)}% of the drop-in's ${tracing.dropInMs.toFixed(2)} ms, ${(tracing.share * 100).toFixed(3)}% of the raw ${tracing.rawMs.toFixed(1)} ms (${tracing.addedUs.toFixed(1)} µs per read; ${tracing.exported} spans exported for ${tracing.traced} reads)`,
      pass: tracing.dropInShare < 0.02 && tracing.exported === tracing.traced,
    },
  ];
}

async function telemetryOnlyMain() {
  const targets = telemetryTargets(await telemetryOverhead(quick ? 9 : 31), await tracingOverhead(quick ? 9 : 31));
  console.log(targets.map((t) => `${t.name}: ${t.value} ${t.pass ? "PASS" : "FAIL"}`).join("\n"));
}

async function postgresOnlyMain() {
  if (!saverFactories.includes(postgresFactory)) throw new Error("--postgres-only needs the Postgres server.");
  const rows = await postgresReadBenchmarks(postgresReadPairs);
  const target = postgresReadTarget(rows);
  console.log(
    [...postgresReadTable(rows), "", `${target.name}: ${target.value} ${target.pass ? "PASS" : "FAIL"}`].join("\n"),
  );
}

async function main() {
  const started = performance.now();
  process.stderr.write(`Benchmarking ${saverFactories.map((f) => f.name).join(", ")}${quick ? " (quick)" : ""}\n`);
  const reads: ReadRow[] = [];
  const serdes: SerdeRow[] = [];
  const puts: Record<string, Comparison> = {};
  const conversations: Record<string, Comparison> = {};
  for (const factory of saverFactories) {
    reads.push(...(await readBenchmarks(factory)));
    serdes.push(...(await serdeBenchmarks(factory)));
    puts[factory.name] = await putBenchmark(factory);
    conversations[factory.name] = await conversationBenchmark(factory);
  }
  const postgresReads: PostgresReadRow[] = saverFactories.includes(postgresFactory)
    ? await postgresReadBenchmarks(postgresReadPairs)
    : [];
  const engine = {
    clean: await engineBenchmark("clean"),
    broken: await engineBenchmark("broken-mid"),
    floorGrowth: await memoryFloor(),
  };
  const heavy = await heavilyBrokenBenchmark();
  const telemetry = await telemetryOverhead(quick ? 9 : 31);
  const tracing = await tracingOverhead(quick ? 9 : 31);
  const dropIn = await dropInBenchmarks();

  const at1k = (state: HistoryState) => reads.filter((r) => r.size === 1000 && r.state === state);
  const targets: Target[] = [
    ...at1k("clean").map((r) => ({
      name: `clean getTuple overhead ≤ 1% at 1,000 messages (${r.backend})`,
      value: `${(r.overhead * 100).toFixed(3)}%`,
      pass: r.overhead <= 0.01,
    })),
    ...at1k("clean").map((r) => ({
      name: `clean read returns the inner tuple (${r.backend})`,
      value: String(r.sameTuple),
      pass: r.sameTuple === true,
    })),
    ...(["broken-tail", "broken-mid"] as const).flatMap((state) =>
      at1k(state).map((r) => ({
        name: `${state} getTuple overhead ≤ 5% at 1,000 messages (${r.backend})`,
        value: `${(r.overhead * 100).toFixed(3)}%`,
        pass: r.overhead <= 0.05,
      })),
    ),
    ...serdes
      .filter((r) => r.size === 1000 && (r.backend === "MemorySaver" || r.backend === "IORedisSaver"))
      .map((r) => ({
        name: `FastJsonPlusSerializer getTuple ≥ 5× stock at 1,000 messages, identical result (${r.backend})`,
        value: `${r.speedup.toFixed(1)}×, ${r.identical ? "identical" : "DIFFERENT"}`,
        pass: r.speedup >= 5 && r.identical,
      })),
    {
      name: "repairMessages ≥ 10 M msg/s on a clean list (1,000)",
      value: `${(engine.clean.perSecond1k / 1e6).toFixed(1)} M/s`,
      pass: engine.clean.perSecond1k >= 10e6,
    },
    {
      name: "repairMessages ≥ 1 M msg/s on a broken list (1,000)",
      value: `${(engine.broken.perSecond1k / 1e6).toFixed(1)} M/s`,
      pass: engine.broken.perSecond1k >= 1e6,
    },
    {
      name: "repairMessages: 10,000 clean cost ≤ 12× 1,000",
      value: `${engine.clean.growth.toFixed(1)}×`,
      pass: engine.clean.growth <= 12,
    },
    {
      name: "repairMessages: 10,000 broken cost ≤ 12× 1,000",
      value: `${engine.broken.growth.toFixed(1)}×`,
      pass: engine.broken.growth <= 12,
    },
    {
      name: "100,000 messages, a repair every 4: the wrapper's own cost ≤ 15 µs per repair (MemorySaver)",
      value: `${heavy.usPerRepair.toFixed(2)} µs × ${heavy.repairs} repairs = ${heavy.ownMs.toFixed(0)} ms (raw read ${heavy.rawMs.toFixed(0)} ms)`,
      pass: heavy.usPerRepair <= 15,
    },
    ...(postgresReads.length > 0 ? [postgresReadTarget(postgresReads)] : []),
    ...telemetryTargets(telemetry, tracing),
    ...dropInTargets(dropIn),
  ];

  const md = [
    `# Benchmark summary${quick ? " (quick)" : ""}`,
    "",
    `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Ratios are sanitized / raw, median of interleaved pairs (interquartile range in parentheses); 1.000 means no cost. "Sanitizer's own cost" is the wrapper's work per read, timed on the already-loaded tuple, as a share of the raw read: the targets are checked on it, because the end-to-end ratio carries the read's own noise.`,
    "",
    "| backend | messages | history | raw getTuple ms | getTuple ratio | list ratio | sanitizer's own cost |",
    "|---|---:|---|---:|---:|---:|---:|",
    ...reads.map(
      (r) =>
        `| ${r.backend} | ${r.size} | ${r.state} | ${r.getTuple.rawMs.toFixed(2)} | ${fmt(r.getTuple)} | ${fmt(r.list)} | ${r.ownMs.toFixed(4)} ms (${(r.overhead * 100).toFixed(3)}%) |`,
    ),
    "",
    "getTuple with FastJsonPlusSerializer against the stock JsonPlusSerializer, reading the same stored thread (no sanitizer):",
    "",
    "| backend | messages | stock ms | fast ms | speedup | identical result |",
    "|---|---:|---:|---:|---:|---|",
    ...serdes.map(
      (r) =>
        `| ${r.backend} | ${r.size} | ${r.stockMs.toFixed(2)} | ${r.fastMs.toFixed(2)} | ${r.speedup.toFixed(1)}× (${r.spread[0].toFixed(1)}–${r.spread[1].toFixed(1)}) | ${r.identical ? "yes" : "NO"} |`,
    ),
    "",
    "| backend | put + putWrites ratio (1,000 messages) | 20-turn conversation ratio |",
    "|---|---:|---:|",
    ...Object.keys(puts).map((b) => `| ${b} | ${fmt(puts[b]!)} | ${fmt(conversations[b]!)} |`),
    "",
    ...(postgresReads.length > 0 ? [...postgresReadTable(postgresReads), ""] : []),
    ...dropInTables(dropIn),
    "",
    `repairMessages alone: clean ${(engine.clean.perSecond1k / 1e6).toFixed(1)} M msg/s (1k), ${(engine.clean.perSecond10k / 1e6).toFixed(1)} M (10k); broken ${(engine.broken.perSecond1k / 1e6).toFixed(1)} M (1k), ${(engine.broken.perSecond10k / 1e6).toFixed(1)} M (10k). Growth from 1,000 to 10,000 messages, with the same 10,000 message objects in memory on both sides: clean ${engine.clean.growth.toFixed(1)}×, broken ${engine.broken.growth.toFixed(1)}× (10× is linear). Against one 1k list kept warm in cache: clean ${engine.clean.warmGrowth.toFixed(1)}×, broken ${engine.broken.warmGrowth.toFixed(1)}×, where a bare loop reading the same fields grows ${engine.floorGrowth.toFixed(1)}× on this machine: that part is memory, not the algorithm.`,
    "",
    "| target | measured | |",
    "|---|---:|---|",
    ...targets.map((t) => `| ${t.name} | ${t.value} | ${t.pass ? "PASS" : "FAIL"} |`),
    "",
  ].join("\n");

  mkdirSync("benchmarks/results", { recursive: true });
  writeFileSync(
    "benchmarks/results/latest.json",
    JSON.stringify(
      {
        quick,
        node: process.version,
        reads,
        serdes,
        puts,
        conversations,
        postgresReads,
        engine,
        heavy,
        telemetry,
        tracing,
        dropIn,
        targets,
      },
      null,
      2,
    ),
  );
  if (writeSummary) {
    writeFileSync("benchmarks/results/summary.md", md);
    writeFileSync("benchmarks/results/summary.svg", chart(reads));
  }
  console.log(md);
  const wrote = writeSummary
    ? "{latest.json,summary.md,summary.svg}"
    : "latest.json (summary unchanged: pass --write-summary)";
  process.stderr.write(
    `done in ${((performance.now() - started) / 1000).toFixed(1)} s; wrote benchmarks/results/${wrote}\n`,
  );
}

await (postgresOnly
  ? postgresOnlyMain()
  : dropInOnly
    ? dropInOnlyMain()
    : telemetryOnly
      ? telemetryOnlyMain()
      : main());
