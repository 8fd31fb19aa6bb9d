// The doctor CLI against real SQLite, Postgres and Redis stores seeded by running and cancelling graphs.
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { interrupt } from "@langchain/langgraph";
import type { Redis } from "ioredis";
import type { IORedisSaver } from "../../src/redis/index.js";
import { INTERRUPT } from "@langchain/langgraph-checkpoint";
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { DoctorReport } from "../../src/cli/doctor.js";
import type { OpenStore } from "../../src/cli/store.js";
import { openPostgres } from "../../src/cli/stores/postgres.js";
import { openRedis } from "../../src/cli/stores/redis.js";
import { openSqlite } from "../../src/cli/stores/sqlite.js";
import { calls } from "../support/generators/messages.js";
import { rejectingProviders } from "../support/oracle/provider-rejections.js";
import { storeFinishedRun } from "../support/graphs/wire-agents.js";
import { reactGraph, type MessagesField } from "../support/graphs/react-graph.js";
import { deleteKeys, postgresFactory, redisFactory, saverFactories, unique } from "../support/savers/savers.js";
import { POSTGRES_URL, REDIS_URL } from "../support/servers/services.js";
import { FIRST_QUESTION, agentModel, cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";

/** Runs the CLI in-process; returns its exit code and output. */
async function doctor(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["doctor", ...argv], {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    isTTY: false,
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}
const json = async (...argv: string[]) => {
  const result = await doctor(...argv, "--json");
  return { code: result.code, report: JSON.parse(result.stdout) as DoctorReport };
};

/** Two clean threads, three cancelled at different points, one paused at an approval. */
async function seed(saver: BaseCheckpointSaver, field: MessagesField = "MessagesValue") {
  const where = { field };
  await nextTurn(saver, "anthropic", "clean-1", undefined, where);
  await nextTurn(saver, "anthropic", "clean-2", undefined, where);
  await cancelFirstTurn(saver, "during-tools", "cancelled-in-tools", where);
  await cancelFirstTurn(saver, "during-llm", "cancelled-in-llm", where);
  await cancelFirstTurn(saver, "after-one-of-two-parallel-tools", "cancelled-in-parallel", where);
  const tools = { search: () => String(interrupt("approve?")), lookup: () => "ok" };
  const approval = reactGraph({ model: agentModel("anthropic"), tools, field }).compile(saver);
  await approval.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, { configurable: { thread_id: "paused" } });
}

/** A finished run whose tool call was never answered before the next user turn (patterns B and C). */
const BROKEN_HISTORY = [
  new HumanMessage({ id: "h1", content: "hi" }),
  calls("a1", "c1"),
  new HumanMessage({ id: "h2", content: "again" }),
];

const EXPECTED_BROKEN = [
  { threadId: "cancelled-in-llm", patterns: { A: 1 } },
  { threadId: "cancelled-in-parallel", patterns: { B2: 1, N: 1, C: 1 } },
  { threadId: "cancelled-in-tools", patterns: { B: 2, C: 1 } },
];

interface StoreUnderTest {
  name: string;
  args: string[];
  saver: BaseCheckpointSaver;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<StoreUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), "doctor-"));
  const file = join(dir, "threads.sqlite");
  const saver = SqliteSaver.fromConnString(file);
  return {
    name: "sqlite",
    args: ["--sqlite", file],
    saver,
    close: async () => (saver.db.close(), rmSync(dir, { recursive: true, force: true })),
  };
}
async function postgresStore(): Promise<StoreUnderTest> {
  const saver = await postgresFactory.create();
  const { schema } = (saver as unknown as { options: { schema: string } }).options;
  return {
    name: "postgres",
    args: ["--postgres", POSTGRES_URL, "--schema", schema],
    saver,
    close: () => postgresFactory.destroy(saver),
  };
}
/**
 * Keys of another app sharing the server, some laid out as another IORedisSaver's threads: SCAN walks them too, so
 * the store's own threads come in several pages, in an order that depends on what else the server holds.
 */
async function foreignKeys(client: Redis): Promise<() => Promise<void>> {
  const prefix = `doctor-foreign-${unique()}`;
  const pipeline = client.pipeline();
  for (let i = 0; i < 3000; i++)
    pipeline.set(i % 2 ? `${prefix}:{thread-${i}}:namespaces` : `${prefix}:session:${i}`, "x");
  await pipeline.exec();
  return () => deleteKeys(client, prefix);
}
async function redisStore(): Promise<StoreUnderTest> {
  const saver = await redisFactory.create();
  const { prefix } = (saver as unknown as { keys: { prefix: string } }).keys;
  const removeForeignKeys = await foreignKeys((saver as IORedisSaver).client as Redis);
  return {
    name: "redis",
    args: ["--redis", REDIS_URL, "--prefix", prefix],
    saver,
    close: async () => (await removeForeignKeys(), await redisFactory.destroy(saver)),
  };
}

/** The store as the doctor's dry run opens it. */
function openAsDoctor({ args: [flag, location, , option] }: StoreUnderTest): Promise<OpenStore> {
  if (flag === "--sqlite") return openSqlite(location!, { writable: false });
  return flag === "--postgres" ? openPostgres(location!, option) : openRedis(location!, option);
}

const available = new Set(saverFactories.map((f) => f.name));
const STORES = [
  ["SQLite", sqliteStore],
  ...(available.has(postgresFactory.name) ? [["Postgres", postgresStore] as const] : []),
  ...(available.has(redisFactory.name) ? [["Redis", redisStore] as const] : []),
] as const;

describe.each(STORES)("doctor on %s", (_, openStore) => {
  const stores: StoreUnderTest[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
  });
  const prepared = (async () => {
    const store = await openStore();
    stores.push(store);
    await seed(store.saver);
    return store;
  })();

  it("reports exactly the broken threads and their patterns, and exits 1", async () => {
    const store = await prepared;
    const { code, report } = await json(...store.args);
    expect(code).toBe(1);
    expect(report.scanned).toBe(6);
    expect(report.broken).toBe(3);
    expect(report.threads.map(({ threadId, patterns }) => ({ threadId, patterns }))).toEqual(EXPECTED_BROKEN);
    expect(report.threads.every((t) => t.action === "would-fix" && t.pendingTasks && !t.interrupted)).toBe(true);
    expect(report.patterns).toEqual({ A: 1, B: 2, B2: 1, C: 2, N: 1 });
    expect(report.threadsByPattern).toEqual({ A: 1, B: 1, B2: 1, C: 2, N: 1 });
  });

  it("reads a batch of latest checkpoints into the tuples the saver's getTuple gives one at a time", async () => {
    const opened = await openAsDoctor(await prepared);
    try {
      const refs = [{ threadId: "no-such-thread", checkpointNs: "" }];
      for await (const page of opened.threads({}).pages) refs.push(...page);
      const batch = await opened.latest!(refs);
      const one = (ref: (typeof refs)[number]) =>
        opened.saver.getTuple({ configurable: { thread_id: ref.threadId, checkpoint_ns: ref.checkpointNs } });
      expect(batch).toStrictEqual(await Promise.all(refs.map(one)));
      expect(batch.filter((tuple) => tuple?.pendingWrites?.length)).not.toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it("prints a summary by pattern and the affected threads, and filters by --thread and --limit", async () => {
    const store = await prepared;
    const text = await doctor(...store.args);
    expect(text.stdout).toMatch(/Scanned 6 thread namespaces in .*: 3 broken\./);
    expect(text.stdout).toMatch(/\nB2\s+1\s+1\s+AIMessage with parallel tool calls only partly answered/);
    expect(text.stdout).toMatch(/"cancelled-in-tools"\s+""\s+B×2 C×1\s+yes\s+would fix \(run with --fix\)/);
    expect(text.stdout).toContain("Dry run: --fix would store each repair as a new checkpoint");
    expect((await json(...store.args, "--thread", "cancelled-in-llm")).report.threads.map((t) => t.threadId)).toEqual([
      "cancelled-in-llm",
    ]);
    expect((await json(...store.args, "--thread", "clean-1")).code).toBe(0);
    expect((await json(...store.args, "--limit", "2")).report.scanned).toBe(2);
  });

  it("--fix stores each repair as a new checkpoint, after which the raw saver's next turn works", async () => {
    const store = await prepared;
    const pausedBefore = await store.saver.getTuple({ configurable: { thread_id: "paused" } });
    const fixed = await json(...store.args, "--fix");
    expect(fixed.code).toBe(0); // nothing left to fix
    expect(fixed.report.fixed).toBe(3);

    // The old checkpoint stays in history as the parent of the fix.
    for (const finding of fixed.report.threads) {
      const latest = await store.saver.getTuple({ configurable: { thread_id: finding.threadId, checkpoint_ns: "" } });
      expect(latest!.checkpoint.id).toBe(finding.fixedCheckpointId);
      expect(latest!.metadata!.source).toBe("update");
      expect(latest!.parentConfig!.configurable!.checkpoint_id).toBe(finding.checkpointId);
    }
    // The paused thread is never touched.
    expect((await store.saver.getTuple({ configurable: { thread_id: "paused" } }))!.checkpoint.id).toBe(
      pausedBefore!.checkpoint.id,
    );

    // Clean now, and a second --fix changes nothing.
    expect(await json(...store.args)).toMatchObject({ code: 0, report: { broken: 0 } });
    expect(await json(...store.args, "--fix")).toMatchObject({ code: 0, report: { broken: 0, fixed: 0 } });

    // The stored history is repaired: the raw saver (no sanitizer) and a strict model continue the thread.
    for (const { threadId } of EXPECTED_BROKEN) {
      const { messages, model } = await nextTurn(store.saver, "anthropic", threadId);
      expect(model.rejections).toEqual([]);
      expect(rejectingProviders(messages)).toEqual({});
    }
  });

  it("reports threads sorted by namespace, then thread id, the same on every run", async () => {
    const store = await openStore();
    stores.push(store);
    const ids = ["m", "a-10", "z", "a-9", "b", "a-1", "Z", "0", "a-2", "y"];
    for (const id of ids) await storeFinishedRun(store.saver, id, BROKEN_HISTORY);
    // The same broken checkpoint in a namespace of its own, for two threads: listed after every "" namespace.
    const template = (await store.saver.getTuple({ configurable: { thread_id: "m", checkpoint_ns: "" } }))!;
    for (const id of ["z", "b"])
      await store.saver.put(
        { configurable: { thread_id: id, checkpoint_ns: "sub:1" } },
        template.checkpoint,
        template.metadata!,
        template.checkpoint.channel_versions,
      );
    const expected = [...[...ids].sort().map((id) => [id, ""]), ["b", "sub:1"], ["z", "sub:1"]];
    const first = await json(...store.args);
    expect(first.report.threads.map((t) => [t.threadId, t.checkpointNs])).toEqual(expected);
    expect((await json(...store.args)).report.threads).toEqual(first.report.threads);
  });

  it("finds and fixes broken delta threads (MessagesDeltaValue) the same way", async () => {
    const store = await openStore();
    stores.push(store);
    await seed(store.saver, "MessagesDeltaValue");
    const where = { field: "MessagesDeltaValue" } as const;
    // The lists are not in the stored checkpoints: the raw saver rebuilds them broken.
    const graph = reactGraph({ model: agentModel("anthropic"), tools: {}, field: where.field }).compile(store.saver);
    const rebuilt = async (threadId: string) =>
      (await graph.getState({ configurable: { thread_id: threadId } })).values.messages;
    expect(rejectingProviders([...(await rebuilt("cancelled-in-llm")), new HumanMessage("next")])).not.toEqual({});

    const { code, report } = await json(...store.args);
    expect(code).toBe(1);
    expect(report.scanned).toBe(6);
    expect(report.threads.map(({ threadId, patterns }) => ({ threadId, patterns }))).toEqual(EXPECTED_BROKEN);

    expect((await json(...store.args, "--fix")).report.fixed).toBe(3);
    expect(await json(...store.args)).toMatchObject({ code: 0, report: { broken: 0 } });
    for (const { threadId } of EXPECTED_BROKEN) {
      expect(rejectingProviders([...(await rebuilt(threadId)), new HumanMessage("next")])).toEqual({});
      const { messages, model } = await nextTurn(store.saver, "bedrock", threadId, undefined, where);
      expect(model.rejections).toEqual([]);
      expect(rejectingProviders(messages)).toEqual({});
    }
  });
});

describe("doctor on hostile thread ids", () => {
  it("escapes every id it prints: no escape sequence reaches the terminal, no id forges a line", async () => {
    const store = await sqliteStore();
    try {
      const ids = [
        "\u001b[2J\u001b[31mred",
        "x\nScanned 0 thread namespaces in nowhere: 0 broken.",
        "\u202eevil",
        "in\u200bvisible\u200e",
      ];
      for (const id of ids) await storeFinishedRun(store.saver, id, BROKEN_HISTORY);
      const { stdout } = await doctor(...store.args);
      expect(stdout).toMatch(/: 4 broken\./);
      // eslint-disable-next-line no-control-regex -- no control character but the line breaks between rows
      expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      expect(stdout.split("\n").filter((line) => line.startsWith("Scanned"))).toHaveLength(1);
      for (const printed of [
        '"\\u001b[2J\\u001b[31mred"',
        '"x\\nScanned 0',
        '"\\u202eevil"',
        '"in\\u200bvisible\\u200e"',
      ])
        expect(stdout).toContain(printed);
      // The JSON report keeps the ids as they are.
      expect((await json(...store.args)).report.threads.map((t) => t.threadId).sort()).toEqual([...ids].sort());
    } finally {
      await store.close();
    }
  });
});

describe("doctor --model and --no-store", () => {
  it("find what a read repairs for the model named, and for an app OpenAI keeps nothing of", async () => {
    const store = await sqliteStore();
    try {
      // A reply the fallback model gave, with its signed thinking; a Responses reply whose reasoning `store: false`
      // never kept (a reply not streamed records no `store`).
      await storeFinishedRun(store.saver, "fallback", [
        new HumanMessage({ id: "h1", content: "Weather?" }),
        new AIMessage({
          id: "a1",
          content: [
            { type: "thinking", thinking: "Check.", signature: "sig" },
            { type: "text", text: "Sunny." },
          ],
          response_metadata: { model: "claude-opus-4-1-20250805", model_provider: "anthropic" },
        }),
      ]);
      const reasoning = { type: "reasoning", id: "rs_1", summary: [] };
      const message = { type: "message", id: "msg_1", role: "assistant", content: [] };
      await storeFinishedRun(store.saver, "zdr", [
        new HumanMessage({ id: "h1", content: "Weather?" }),
        new AIMessage({ id: "a1", content: "Sunny.", response_metadata: { output: [reasoning, message] } }),
      ]);
      expect((await json(...store.args)).code).toBe(0);
      const byModel = await json(...store.args, "--model", "claude-sonnet-4-5");
      expect(byModel.report.threads.map((t) => [t.threadId, t.patterns])).toEqual([["fallback", { S: 1 }]]);
      const storeless = await json(...store.args, "--no-store");
      expect(storeless.report.threads.map((t) => [t.threadId, t.patterns])).toEqual([["zdr", { V: 1 }]]);
    } finally {
      await store.close();
    }
  });
});

describe("doctor errors", () => {
  it.each([
    [["doctor"], "give exactly one of --sqlite FILE, --postgres URL, --redis URL", true],
    [["doctor", "--sqlite", "a", "--redis", "b"], "give exactly one of", true],
    [["doctor", "--sqlite", "/no/such/file.sqlite"], "no such SQLite file: /no/such/file.sqlite", false],
    [["doctor", "--sqlite", "x", "--limit", "0"], "--limit takes a positive whole number, got 0", true],
    [["doctor", "--sqlite", "x", "--markers", "fr"], "--markers takes en or ko, got fr", true],
    [
      ["doctor", "--sqlite", "x", "--provider", "azure"],
      "--provider takes anthropic, bedrock, cerebras, cohere, deepseek, gemini, groq, mistral, ollama, openai, openrouter, perplexity, vertex, xai, strictest, got azure",
      true,
    ],
    [["doctor", "--sqlite", "x", "--schema", "s"], "--schema goes with --postgres", true],
    [["doctor", "--sqlite", "x", "--model", " "], "--model takes the name of a model", true],
    [["doctor", "--frobnicate"], "Unknown option '--frobnicate'", true],
    [["repair"], "unknown command: repair", true],
    [["doctor", "--redis", "redis://127.0.0.1:1"], "cannot reach Redis at redis://127.0.0.1:1", false],
    [["doctor", "--redis", "redis://:secret@127.0.0.1:1"], "cannot reach Redis at redis://:***@127.0.0.1:1", false],
    [
      ["doctor", "--postgres", "postgresql://postgres:secret@127.0.0.1:1/test"],
      "cannot reach Postgres at postgresql://postgres:***@127.0.0.1:1/test",
      false,
    ],
  ])(
    "%j exits 2 with one line saying what is wrong (and the usage when the command line is)",
    async (argv, message, usage) => {
      const err: string[] = [];
      const code = await main(argv, { stdout: () => {}, stderr: (t) => err.push(t), isTTY: false });
      expect(code).toBe(2);
      expect(err[0]).toContain(message);
      expect(err.join("\n").includes("usage: langgraph-checkpoint-sanitizer doctor")).toBe(usage);
      expect(err.join("\n")).not.toMatch(/\n\s+at /); // no stack trace
    },
  );

  it("says a SQLite file that is not a checkpoint store is not one, without creating tables in it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "doctor-"));
    const file = join(dir, "other.sqlite");
    const { default: Database } = await import("better-sqlite3");
    new Database(file).exec("CREATE TABLE notes (x TEXT)");
    const result = await doctor("--sqlite", file);
    expect(result).toMatchObject({
      code: 2,
      stderr: `langgraph-checkpoint-sanitizer: ${file} has no checkpoints table: is it a LangGraph SQLite store?`,
    });
    const tables = new Database(file).prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    expect(tables).toEqual([{ name: "notes" }]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("doctor dry run", () => {
  it("leaves a SQLite store byte for byte as it was, journal mode included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "doctor-readonly-"));
    const file = join(dir, "threads.sqlite");
    const saver = SqliteSaver.fromConnString(file);
    await cancelFirstTurn(saver, "during-tools", "broken");
    saver.db.pragma("journal_mode=DELETE"); // SqliteSaver's own setup would switch it back to WAL
    saver.db.close();
    const before = readFileSync(file);
    const { code, report } = await json("--sqlite", file);
    expect([code, report.broken]).toEqual([1, 1]);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(["threads.sqlite"]); // no -wal or -shm file either
    rmSync(dir, { recursive: true, force: true });
  });
});

/** A SQLite store of `count` threads (`thread-00000` on), each a copy of one cancelled mid-model (pattern A). */
async function seededSqlite(count: number): Promise<StoreUnderTest> {
  const store = await sqliteStore();
  const saver = store.saver as SqliteSaver;
  // Seeded with plain puts: running thousands of graphs would take minutes and prove nothing more.
  await cancelFirstTurn(saver, "during-llm", "thread-00000");
  const template = (await saver.getTuple({ configurable: { thread_id: "thread-00000" } }))!;
  saver.db.exec("BEGIN");
  for (let i = 1; i < count; i++) {
    await saver.put(
      { configurable: { thread_id: `thread-${String(i).padStart(5, "0")}`, checkpoint_ns: "" } },
      template.checkpoint,
      template.metadata!,
    );
  }
  saver.db.exec("COMMIT");
  return store;
}

describe("doctor at scale", () => {
  it("scans a store of 10,000 threads a page at a time", async () => {
    const store = await seededSqlite(10_000);
    try {
      const { code, report } = await json(...store.args);
      expect(code).toBe(1);
      expect(report.scanned).toBe(10_000);
      expect(report.broken).toBe(10_000);
      expect(report.patterns).toEqual({ A: 10_000 });
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe("doctor exit codes", () => {
  it("0 when nothing is left to fix, 1 while broken threads are left, paused ones only with --fail-on-paused", async () => {
    const store = await sqliteStore();
    try {
      await nextTurn(store.saver, "anthropic", "clean");
      expect((await json(...store.args)).code).toBe(0);
      // A broken history paused at an interrupt: reported, never touched, and no failure by default.
      // Broken before its last turn (what a tail policy preserves at an interrupt is not repaired).
      const answered = [new AIMessage({ id: "a2", content: "ok" }), new HumanMessage({ id: "h3", content: "more" })];
      await storeFinishedRun(store.saver, "paused", [...BROKEN_HISTORY, ...answered]);
      const latest = (await store.saver.getTuple({ configurable: { thread_id: "paused", checkpoint_ns: "" } }))!;
      await store.saver.putWrites(latest.config, [[INTERRUPT, [{ value: "approve?" }]]], "task-1");
      const paused = await json(...store.args);
      expect(paused).toMatchObject({ code: 0, report: { broken: 1, paused: 1 } });
      expect(paused.report.threads[0]!.action).toBe("paused-at-interrupt");
      expect((await json(...store.args, "--fail-on-paused")).code).toBe(1);
      expect((await doctor(...store.args)).stdout).toContain("1 of them paused at an interrupt (never touched)");

      await storeFinishedRun(store.saver, "broken", BROKEN_HISTORY);
      expect((await json(...store.args)).code).toBe(1);
      expect(await json(...store.args, "--fix")).toMatchObject({ code: 0, report: { fixed: 1, paused: 1 } });
      expect((await json(...store.args)).code).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("128 + the signal's number when a signal stopped the scan, with where to continue", async () => {
    const store = await seededSqlite(300);
    try {
      for (const [signal, code] of [
        ["SIGINT", 130],
        ["SIGTERM", 143],
      ] as const) {
        const stop = new AbortController();
        stop.abort(signal);
        const out: string[] = [];
        const err: string[] = [];
        const argv = ["doctor", ...store.args, "--json"];
        expect(
          await main(argv, {
            stdout: (t) => out.push(t),
            stderr: (t) => err.push(t),
            isTTY: false,
            signal: stop.signal,
          }),
        ).toBe(code);
        expect(JSON.parse(out.join("\n"))).toMatchObject({ scanned: 0, stopped: { signal, after: null } });
        expect(err.join("\n")).toContain(`Stopped by ${signal}`);
      }
    } finally {
      await store.close();
    }
  });
});

describe("doctor --shard, --after and progress", () => {
  it("splits the threads between shards, each once, and --after starts after a thread", async () => {
    const store = await seededSqlite(600);
    try {
      const shards = await Promise.all(["1/3", "2/3", "3/3"].map((shard) => json(...store.args, "--shard", shard)));
      const ids = shards.map((s) => s.report.threads.map((t) => t.threadId));
      for (const shard of ids) expect(shard.length).toBeGreaterThan(100);
      expect(ids.flat().sort()).toEqual((await json(...store.args)).report.threads.map((t) => t.threadId));
      const after = await json(...store.args, "--after", "thread-00549");
      expect(after.report.threads.map((t) => t.threadId)).toEqual(
        Array.from({ length: 50 }, (_, i) => `thread-${String(550 + i).padStart(5, "0")}`),
      );
      expect((await doctor(...store.args, "--shard", "4/3")).stderr).toContain("--shard takes K/N with 1 <= K <= N");
    } finally {
      await store.close();
    }
  });

  it("prints progress lines on stderr off a terminal, and none with --quiet", async () => {
    const store = await seededSqlite(300);
    try {
      const { stderr } = await doctor(...store.args);
      expect(stderr).toMatch(/^doctor: scanned \d+ of 300 \(\d+%\), [\d,]+\/s, ETA \d+:\d\d, \d+ broken$/m);
      expect((await doctor(...store.args, "--quiet")).stderr).toBe("");
    } finally {
      await store.close();
    }
  });
});

/** The doctor as a real process (the bin's own signal handling): its output as it comes, and its exit. */
function doctorProcess(argv: string[]) {
  const main = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", main, "doctor", ...argv], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output, exited };
}

describe("doctor stopped by SIGINT", () => {
  it("during --fix finishes the fixes under way, prints the whole --json report, and a resumed run fixes the rest once", async () => {
    const store = await seededSqlite(5000);
    try {
      const run = doctorProcess([...store.args, "--fix", "--json"]);
      await new Promise<void>((resolve) =>
        run.child.stderr.on("data", () => run.output.stderr.includes("doctor: scanned") && resolve()),
      );
      run.child.kill("SIGINT");
      expect(await run.exited).toBe(130);
      const stopped = JSON.parse(run.output.stdout) as DoctorReport;
      expect(stopped.stopped).toMatchObject({ signal: "SIGINT", after: { checkpointNs: "" } });
      expect(stopped.scanned).toBeGreaterThan(0);
      expect(stopped.scanned).toBeLessThan(5000);
      // Complete: every thread scanned is in order, fixed, and counted; the last one is where to continue.
      expect(stopped.threads.map((t) => t.threadId)).toEqual(
        Array.from({ length: stopped.scanned }, (_, i) => `thread-${String(i).padStart(5, "0")}`),
      );
      expect(stopped.threads.every((t) => t.action === "fixed")).toBe(true);
      expect(stopped.fixed).toBe(stopped.scanned);
      expect(stopped.stopped!.after!.threadId).toBe(stopped.threads.at(-1)!.threadId);
      expect(run.output.stderr).toContain("Stopped by SIGINT; the fixes under way were finished.");
      for (const finding of stopped.threads.slice(-3)) {
        const latest = await store.saver.getTuple({ configurable: { thread_id: finding.threadId, checkpoint_ns: "" } });
        expect(latest!.checkpoint.id).toBe(finding.fixedCheckpointId);
      }

      const dir = mkdtempSync(join(tmpdir(), "doctor-resume-"));
      const saved = join(dir, "stopped.json");
      writeFileSync(saved, run.output.stdout);
      const resumed = await json(...store.args, "--fix", "--resume", saved);
      rmSync(dir, { recursive: true, force: true });
      expect(resumed.code).toBe(0);
      expect(resumed.report.scanned).toBe(5000 - stopped.scanned);
      expect(resumed.report.fixed).toBe(5000 - stopped.scanned);
      // Nothing was fixed twice: the two runs fixed every thread once between them, and nothing is left.
      const fixedIds = [...stopped.threads, ...resumed.report.threads].map((t) => t.threadId);
      expect(new Set(fixedIds).size).toBe(5000);
      expect(await json(...store.args)).toMatchObject({ code: 0, report: { scanned: 5000, broken: 0 } });
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe("the installed bin", () => {
  it("runs as `langgraph-checkpoint-sanitizer doctor` and exits with the doctor's code", async () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const run = promisify(execFile);
    const result = await run(
      "npx",
      ["--no-install", "langgraph-checkpoint-sanitizer", "doctor", "--sqlite", "/no/such.sqlite"],
      { cwd: root },
    ).catch((e) => e);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("langgraph-checkpoint-sanitizer: no such SQLite file: /no/such.sqlite");
  }, 120_000);
});
