/**
 * The doctor on a store of 10,000 and 100,000 threads per backend, against the store's own floor: one query (or
 * pipeline) reading the latest checkpoint of every thread and its messages. Stores are seeded from templates made
 * by real graph runs (cancelled mid-tool, cancelled mid-model, paused at interrupt(), clean), copied with new
 * thread ids: 6% of the threads are broken. A last row per backend seeds 10,000 long conversations instead (80
 * messages, about 80 KB each, 6% with a call left unanswered mid-history), the size of a real chat store's threads.
 * Each doctor run is a process of its own (`/usr/bin/time` gives its wall time and peak resident memory), a dry run
 * with `--json --quiet`; the floor and the doctor are each run `--runs` times (3 by default) and their medians shown,
 * with the load average (1 minute) before and after the row.
 *
 * npm run bench:doctor [-- --quick] [-- --runs N]   (--quick: no 100,000-thread row)
 *
 * It prints a Markdown table; it writes nothing. Its stores are its own: a schema in the shared Postgres, a key
 * prefix in the shared Redis and a temporary SQLite file, all removed afterwards.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { END, interrupt, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver, Checkpoint } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import type pg from "pg";
import type { IORedisSaver } from "../src/redis/index.js";
import { decodeFrame } from "../src/redis/frame.js";
import { blobField, KeyLayout } from "../src/redis/keys.js";
import { reactGraph } from "../test/support/graphs/react-graph.js";
import { fastPostgresFactory, redisFactory } from "../test/support/savers/savers.js";
import { postgresCopies, redisCopies, sqliteCopies } from "../test/support/savers/thread-copies.js";
import { FIRST_QUESTION, agentModel, cancelFirstTurn, nextTurn } from "../test/support/graphs/scenarios.js";
import { POSTGRES_URL, REDIS_URL, serviceAvailable } from "../test/support/servers/services.js";
import { binRun, load, median, timed } from "./cli-process.js";

const runsFlag = process.argv.indexOf("--runs");
const RUNS = runsFlag === -1 ? 3 : Number(process.argv[runsFlag + 1]);

/** What the threads are copies of: the short templates of real runs, or long conversations. */
type Payload = "runs" | "long";
const ROWS: { n: number; payload: Payload }[] = [
  { n: 10_000, payload: "runs" },
  ...(process.argv.includes("--quick") ? [] : [{ n: 100_000, payload: "runs" as const }]),
  { n: 10_000, payload: "long" },
];

/**
 * The template of thread `i`. Out of every 100 threads of runs: 3 cancelled mid-tool and 3 mid-model (reported), 1
 * paused at an approval, 93 clean. Out of every 100 long conversations: 6 broken mid-history, 94 clean.
 */
const MIX = [...Array<string>(3).fill("tools"), ...Array<string>(3).fill("model"), "paused"];
const templateOf = (payload: Payload, i: number) =>
  payload === "long" ? (i % 100 < 6 ? "long-broken" : "long-clean") : (MIX[i % 100] ?? "clean");
/**
 * A long conversation: 20 turns of a question, a tool call, its result and an answer, each about 1 KB. The broken one
 * lost the result of its tenth call (a run cancelled mid-tool that the user went on from): patterns B and C.
 */
function conversation(broken: boolean): BaseMessage[] {
  const text = (what: string, turn: number) => `${what} ${turn}: ${"lorem ipsum dolor sit amet ".repeat(36)}`;
  return Array.from({ length: 20 }, (_, t) => [
    new HumanMessage({ id: `h${t}`, content: text("question", t) }),
    new AIMessage({
      id: `c${t}`,
      content: "",
      tool_calls: [{ id: `call${t}`, name: "lookup", args: { q: text("q", t) } }],
    }),
    ...(broken && t === 9
      ? []
      : [new ToolMessage({ id: `r${t}`, tool_call_id: `call${t}`, content: text("result", t) })]),
    new AIMessage({ id: `a${t}`, content: text("answer", t) }),
  ]).flat();
}

/** The template threads, made by running real graphs on `saver`. */
async function runTemplates(saver: BaseCheckpointSaver): Promise<void> {
  await cancelFirstTurn(saver, "during-tools", "tools");
  await cancelFirstTurn(saver, "during-llm", "model");
  await nextTurn(saver, "anthropic", "clean");
  const tools = { search: () => String(interrupt("approve?")), lookup: () => "ok" };
  const approval = reactGraph({ model: agentModel("anthropic"), tools }).compile(saver);
  await approval.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, { configurable: { thread_id: "paused" } });
  for (const broken of [false, true]) {
    const history = conversation(broken);
    await new StateGraph(MessagesAnnotation)
      .addNode("run", () => ({ messages: history }))
      .addEdge(START, "run")
      .addEdge("run", END)
      .compile({ checkpointer: saver })
      .invoke({ messages: [] }, { configurable: { thread_id: broken ? "long-broken" : "long-clean" } });
  }
}

interface Backend {
  name: string;
  args: string[];
  /** Copies the templates into threads 0..n-1 (replacing any earlier copies). */
  seed(n: number, payload: Payload): Promise<void>;
  /** The floor: every latest checkpoint and its messages, in one query or pipeline; returns the rows read. */
  floor(): Promise<number>;
  close(): Promise<void>;
}

/** The templates of threads 0..99, repeating: thread `i` copies the one at `i % 100`. */
const templates = (payload: Payload) => Array.from({ length: 100 }, (_, i) => templateOf(payload, i));

async function postgresBackend(): Promise<Backend> {
  const saver = await fastPostgresFactory.create();
  const { schema } = (saver as unknown as { options: { schema: string } }).options;
  const pool = (saver as unknown as { pool: pg.Pool }).pool;
  await runTemplates(saver);
  const s = `"${schema}"`;
  const copies = postgresCopies(saver);
  return {
    name: "Postgres (official tables)",
    args: ["--postgres", POSTGRES_URL, "--schema", schema],
    seed: (n, payload) => copies.copy("bench-", n, templates(payload)),
    async floor() {
      const { rows } = await pool.query(
        `SELECT DISTINCT ON (c.thread_id, c.checkpoint_ns) c.checkpoint, b.blob FROM ${s}.checkpoints c
         LEFT JOIN ${s}.checkpoint_blobs b ON b.thread_id = c.thread_id AND b.checkpoint_ns = c.checkpoint_ns
           AND b.channel = 'messages' AND b.version = c.checkpoint -> 'channel_versions' ->> 'messages'
         ORDER BY c.thread_id, c.checkpoint_ns, c.checkpoint_id DESC`,
      );
      return rows.length;
    },
    close: () => fastPostgresFactory.destroy(saver),
  };
}

async function sqliteBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), "doctor-bench-"));
  const file = join(dir, "threads.sqlite");
  const saver = SqliteSaver.fromConnString(file);
  await runTemplates(saver);
  const copies = sqliteCopies(saver);
  return {
    name: "SQLite",
    args: ["--sqlite", file],
    seed: (n, payload) => copies.copy("bench-", n, templates(payload)),
    async floor() {
      const rows = saver.db
        .prepare(
          `SELECT c.checkpoint, c.metadata FROM checkpoints c
           WHERE c.checkpoint_id = (SELECT max(checkpoint_id) FROM checkpoints l WHERE l.thread_id = c.thread_id AND l.checkpoint_ns = c.checkpoint_ns)`,
        )
        .all();
      return rows.length;
    },
    close: async () => (saver.db.close(), rmSync(dir, { recursive: true, force: true })),
  };
}

async function redisBackend(): Promise<Backend> {
  const saver = (await redisFactory.create()) as IORedisSaver;
  const client = saver.client as Redis;
  const { prefix } = (saver as unknown as { keys: { prefix: string } }).keys;
  await runTemplates(saver);
  const copies = redisCopies(saver);
  return {
    name: "Redis (IORedisSaver)",
    args: ["--redis", REDIS_URL, "--prefix", prefix],
    seed: (n, payload) => copies.copy("bench-", n, templates(payload)),
    async floor() {
      const keys = new KeyLayout(prefix);
      const refs = [];
      for await (const ref of saver.threads()) refs.push(keys.namespace(ref.threadId, ref.checkpointNs));
      const latest = client.pipeline();
      for (const { checkpoints } of refs) latest.zrevrangebylex(checkpoints, "+", "-", "LIMIT", 0, 1);
      const ids = (await latest.exec())!.map(([, found]) => (found as string[])[0]!);
      const read = client.pipeline();
      refs.forEach(({ checkpoint }, i) => read.hgetBuffer(checkpoint, ids[i]!));
      const checkpoints = (await read.exec())!.map(([, stored]) => stored as Buffer);
      // The messages are a blob of their own, at the version the checkpoint names: its JSON (without the blobs) is
      // parsed for that, as the Postgres floor's statement reads it from the checkpoint's JSON.
      const blobs = client.pipeline();
      refs.forEach(({ blobs: key }, i) => {
        const [json] = decodeFrame(checkpoints[i]!).parts;
        const { channel_versions } = JSON.parse(Buffer.from(json!).toString()) as Checkpoint;
        blobs.hgetBuffer(key, blobField("messages", channel_versions.messages!));
      });
      return (await blobs.exec())!.length;
    },
    close: async () => (await copies.remove("bench-"), await redisFactory.destroy(saver)),
  };
}

/** One dry run of the doctor as its own process: wall seconds, peak resident MB, and what it reported. */
const doctor = (args: string[]) => binRun<{ scanned: number; broken: number; paused: number }>("doctor", args);

const opens: [string, () => Promise<Backend>, "postgres" | "redis" | undefined][] = [
  ["Postgres", postgresBackend, "postgres"],
  ["SQLite", sqliteBackend, undefined],
  ["Redis", redisBackend, "redis"],
];
const rows: string[] = [];
for (const [, open, service] of opens) {
  if (service !== undefined && !(await serviceAvailable(service))) continue;
  const backend = await open();
  try {
    const peaks: number[] = [];
    for (const { n, payload } of ROWS) {
      await backend.seed(n, payload);
      const loadBefore = load();
      const floors: number[] = [];
      const doctors: Awaited<ReturnType<typeof doctor>>[] = [];
      let floorRows = 0;
      // Interleaved, so a change in the machine's load weighs on both alike.
      for (let k = 0; k < RUNS; k++) {
        const [seconds, read] = await timed(() => backend.floor());
        floors.push(seconds);
        floorRows = read;
        doctors.push(await doctor(backend.args));
      }
      const [floorSeconds, seconds, mb] = [
        median(floors),
        median(doctors.map((d) => d.seconds)),
        median(doctors.map((d) => d.mb)),
      ];
      if (payload === "runs") peaks.push(mb);
      const { scanned, broken, paused } = doctors[0]!.report;
      const threads = `${n.toLocaleString("en-US")}${payload === "long" ? " long (80 KB)" : ""}`;
      rows.push(
        `| ${backend.name} | ${threads} | ${floorSeconds.toFixed(2)} s (${floorRows} rows) | ${seconds.toFixed(2)} s | ${(seconds / floorSeconds).toFixed(2)}× | ${mb.toFixed(0)} MB | ${loadBefore} → ${load()} | ${scanned} scanned, ${broken} broken, ${paused} paused |`,
      );
      console.error(rows.at(-1));
    }
    if (peaks.length === 2)
      rows.push(
        `| ${backend.name} | peak memory, 100,000 / 10,000 | | | | ${(peaks[1]! / peaks[0]!).toFixed(2)}× | | |`,
      );
  } finally {
    await backend.close();
  }
}
console.log(
  [
    `Medians of ${RUNS} runs each.`,
    "",
    "| backend | threads | floor: one read of every latest checkpoint | doctor dry run | doctor / floor | doctor peak RSS | load average | report |",
    "|---|---:|---:|---:|---:|---:|---|---|",
    ...rows,
  ].join("\n"),
);
