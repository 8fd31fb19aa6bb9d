// The prune command on real SQLite, Postgres and Redis stores: a dry run by default, --apply, --json by thread, exit
// codes, progress, a stop by SIGINT and its resume, and a process killed outright mid-prune (every thread still reads
// as before, and a second prune finishes).
import { HumanMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer, prune, type PruneReport } from "../../src/index.js";
import { main } from "../../src/cli/main.js";
import type { IORedisSaver } from "../../src/redis/index.js";
import { plain } from "../support/comparisons/conversation-record.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { FIRST_QUESTION, agentModel, cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";
import {
  postgresFactory,
  redisFactory,
  saverFactories,
  sqliteFactory,
  type SaverFactory,
} from "../support/savers/savers.js";
import {
  copyId,
  postgresCopies,
  redisCopies,
  sqliteCopies,
  type ThreadCopies,
} from "../support/savers/thread-copies.js";
import { POSTGRES_URL, REDIS_URL } from "../support/servers/services.js";

/** Runs the CLI in-process; returns its exit code and output. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["prune", ...argv], { stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: false });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}
const json = async (...argv: string[]) => {
  const result = await cli(...argv, "--json", "--quiet");
  return { code: result.code, report: JSON.parse(result.stdout) as PruneReport };
};

/** The templates the copies are made of: finished, stopped mid-tool, paused at an approval, a delta thread. */
const TEMPLATES = ["finished", "stopped", "paused", "delta"];

async function runTemplates(saver: BaseCheckpointSaver): Promise<void> {
  await nextTurn(saver, "anthropic", "finished", FIRST_QUESTION);
  await nextTurn(saver, "anthropic", "finished");
  await cancelFirstTurn(saver, "during-tools", "stopped");
  const tools = { search: () => String(interrupt("approve?")), lookup: () => "ok" };
  await reactGraph({ model: agentModel("anthropic"), tools })
    .compile(saver)
    .invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, { configurable: { thread_id: "paused" } });
  const delta = { field: "MessagesDeltaValue(3)" } as const;
  await nextTurn(saver, "anthropic", "delta", FIRST_QUESTION, delta);
  await nextTurn(saver, "anthropic", "delta", undefined, delta);
}

interface StoreUnderTest {
  args: string[];
  saver: BaseCheckpointSaver;
  copies: ThreadCopies;
}

const opened: [BaseCheckpointSaver, SaverFactory][] = [];
afterAll(() => Promise.all(opened.map(([saver, factory]) => factory.destroy(saver))));

const KINDS = {
  SQLite: {
    factory: sqliteFactory,
    args: (saver: BaseCheckpointSaver) => ["--sqlite", (saver as SqliteSaver).db.name],
    copies: (saver: BaseCheckpointSaver) => sqliteCopies(saver as SqliteSaver),
  },
  Postgres: {
    factory: postgresFactory,
    args: (saver: BaseCheckpointSaver) => [
      "--postgres",
      POSTGRES_URL,
      "--schema",
      (saver as unknown as { options: { schema: string } }).options.schema,
    ],
    copies: postgresCopies,
  },
  Redis: {
    factory: redisFactory,
    args: (saver: BaseCheckpointSaver) => [
      "--redis",
      REDIS_URL,
      "--prefix",
      (saver as unknown as { keys: { prefix: string } }).keys.prefix,
    ],
    copies: (saver: BaseCheckpointSaver) => redisCopies(saver as IORedisSaver),
  },
} as const;

/** A store of `kind` holding the templates, run for real, and `count` copies of them (`thread-0000000` on). */
async function seeded(kind: keyof typeof KINDS, count: number): Promise<StoreUnderTest> {
  const { factory, args, copies } = KINDS[kind];
  const saver = await factory.create();
  opened.push([saver, factory]);
  await runTemplates(new SanitizingCheckpointer(saver));
  const store = { args: args(saver), saver, copies: copies(saver) };
  await store.copies.copy("thread-", count, TEMPLATES);
  return store;
}

const available = new Set(saverFactories.map((f) => f.name));
const KIND_NAMES = (Object.keys(KINDS) as (keyof typeof KINDS)[]).filter((k) => available.has(KINDS[k].factory.name));

/** Every thread's newest checkpoint as the sanitizer reads it, but the parent link retention relinks. */
async function newestOfEach(saver: BaseCheckpointSaver, threads: string[]) {
  const reader = new SanitizingCheckpointer(saver);
  return Promise.all(
    threads.map(async (thread_id) => {
      const { parentConfig: _, ...tuple } = (await reader.getTuple({ configurable: { thread_id } }))!;
      return plain(tuple);
    }),
  );
}

describe.each(KIND_NAMES)("prune on %s", (kind) => {
  const store = seeded(kind, 40);

  it("dry-runs by default: says what --apply would remove, by thread in --json, exits 1, and removes nothing", async () => {
    const { args, saver } = await store;
    const text = await cli(...args, "--keep-last", "1");
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /^Scanned 44 threads in .*, keeping the newest checkpoint of each thread namespace: 4\d threads to prune\.\nWould remove [\d,]+ checkpoints, [\d,]+ pending writes, [\d,]+ channel values and 0 subgraph namespaces \([\d.]+ kB\); [\d,]+ checkpoints kept, [\d,]+ of them relinked to their nearest kept ancestor\.\nDry run: run the same command with --apply to remove them\.$/,
    );
    const { code, report } = await json(...args, "--keep-last", "1");
    expect(code).toBe(1);
    const library = await prune(saver, { keepLast: 1, dryRun: true });
    expect(report).toEqual({ ...library, store: report.store });
    expect(report.threads.map((t) => t.threadId)).toEqual([...report.threads.map((t) => t.threadId)].sort());
    expect(report.removed.checkpoints).toBe(report.threads.reduce((sum, t) => sum + t.checkpoints, 0));
    expect((await prune(saver, { keepLast: 1, dryRun: true })).removed).toEqual(report.removed);
  });

  it("--apply removes it and exits 0; every thread reads as before; a second run finds nothing", async () => {
    const { args, saver } = await store;
    const threads = [...TEMPLATES, ...Array.from({ length: 40 }, (_, i) => copyId("thread-", i))];
    const before = await newestOfEach(saver, threads);
    const dry = (await json(...args, "--keep-last", "2")).report;
    const applied = await cli(...args, "--keep-last", "2", "--apply");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/\nRemoved [\d,]+ checkpoints/);
    expect(applied.stdout).not.toContain("Dry run");
    expect(await newestOfEach(saver, threads)).toEqual(before);
    const again = await json(...args, "--keep-last", "2");
    expect(again).toMatchObject({ code: 0, report: { pruned: 0, removed: { checkpoints: 0 } } });
    expect(again.report.kept).toBe(dry.kept);
  });
});

describe("prune's command line", () => {
  it.each([
    [["prune", "--sqlite", "x"], "give --keep-last N, --older-than AGE or both"],
    [["prune", "--sqlite", "x", "--keep-last", "0"], "--keep-last takes a positive whole number, got 0"],
    [
      ["prune", "--sqlite", "x", "--older-than", "30 days"],
      "--older-than takes an age such as 30d, 12h, 90m or 2w, got 30 days",
    ],
    [
      ["prune", "--sqlite", "x", "--keep-last", "1", "--after", "a", "--resume", "f"],
      "give --after or --resume, not both",
    ],
    [
      ["prune", "--sqlite", "x", "--redis", "y", "--keep-last", "1"],
      "give exactly one of --sqlite FILE, --postgres URL, --redis URL",
    ],
    [["prune", "--sqlite", "x", "--keep-last", "1", "--fix"], "Unknown option '--fix'"],
    [[], "missing command: doctor or prune"],
  ])("%j exits 2 with one line saying what is wrong, and the usage", async (argv, message) => {
    const err: string[] = [];
    expect(await main(argv, { stdout: () => {}, stderr: (t) => err.push(t), isTTY: false })).toBe(2);
    expect(err[0]!.split("\n")[0]).toBe(`langgraph-checkpoint-sanitizer: ${message}`);
    expect(err.join("\n")).toContain("langgraph-checkpoint-sanitizer prune (--sqlite FILE");
  });

  it("says a missing store is missing, exits 2, and creates nothing", async () => {
    const result = await cli("--sqlite", "/no/such/file.sqlite", "--keep-last", "1");
    expect(result).toMatchObject({
      code: 2,
      stderr: "langgraph-checkpoint-sanitizer: no such SQLite file: /no/such/file.sqlite",
    });
  });

  it("prints progress lines on stderr off a terminal, and none with --quiet", async () => {
    const { args } = await seeded("SQLite", 10);
    expect((await cli(...args, "--keep-last", "1")).stderr).toMatch(
      /^prune: scanned 14 of 14 \(100%\), [\d,]+\/s, ETA 0:00, 1\d threads to prune, [\d,]+ checkpoints$/m,
    );
    expect((await cli(...args, "--keep-last", "1", "--quiet")).stderr).toBe("");
  });
});

/** The CLI as a real process (the bin's own signal handling): its output as it comes, and its exit. */
function pruneProcess(argv: string[]) {
  const bin = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", bin, "prune", ...argv], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const progressed = new Promise<void>((resolve) =>
    child.stderr.on("data", () => output.stderr.includes("prune: scanned") && resolve()),
  );
  return { child, output, exited, progressed };
}

describe("prune stopped by SIGINT", () => {
  it("finishes the threads under way, prints the whole --json report, and --resume prunes the rest once", async () => {
    const { args } = await seeded("SQLite", 4000);
    const run = pruneProcess([...args, "--keep-last", "1", "--apply", "--json"]);
    await run.progressed;
    run.child.kill("SIGINT");
    expect((await run.exited).code).toBe(130);
    const stopped = JSON.parse(run.output.stdout) as PruneReport;
    expect(stopped.stopped).toMatchObject({ signal: "SIGINT", after: expect.any(String) });
    expect(stopped.scanned).toBeGreaterThan(0);
    expect(stopped.scanned).toBeLessThan(4004);
    expect(run.output.stderr).toContain("Stopped by SIGINT; the threads under way were finished, each whole.");
    expect(stopped.threads.every((t) => t.threadId <= stopped.stopped!.after!)).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), "prune-resume-"));
    const saved = join(dir, "stopped.json");
    writeFileSync(saved, run.output.stdout);
    const resumed = await json(...args, "--keep-last", "1", "--apply", "--resume", saved);
    rmSync(dir, { recursive: true, force: true });
    expect(resumed.code).toBe(0);
    expect(resumed.report.scanned).toBe(4004 - stopped.scanned);
    const pruned = [...stopped.threads, ...resumed.report.threads].map((t) => t.threadId);
    expect(new Set(pruned).size).toBe(pruned.length);
    expect(await json(...args, "--keep-last", "1")).toMatchObject({ code: 0, report: { scanned: 4004, pruned: 0 } });
  }, 120_000);
});

describe.each(KIND_NAMES)("prune killed with SIGKILL on %s", (kind) => {
  it("leaves every thread reading as before, and a second prune finishes", async () => {
    const count = kind === "SQLite" ? 4000 : 1500;
    const { args, saver } = await seeded(kind, count);
    const threads = Array.from({ length: count }, (_, i) => copyId("thread-", i));
    const before = await newestOfEach(saver, threads);
    const run = pruneProcess([...args, "--keep-last", "1", "--apply"]);
    await run.progressed;
    run.child.kill("SIGKILL");
    expect((await run.exited).signal).toBe("SIGKILL");
    const left = await json(...args, "--keep-last", "1");
    // Killed mid-prune: some threads were pruned, others not yet.
    expect(left.report.pruned).toBeGreaterThan(0);
    expect(left.report.pruned).toBeLessThan(count);
    expect(await newestOfEach(saver, threads)).toEqual(before);
    expect((await cli(...args, "--keep-last", "1", "--apply", "--quiet")).code).toBe(0);
    expect(await json(...args, "--keep-last", "1")).toMatchObject({ code: 0, report: { pruned: 0 } });
    expect(await newestOfEach(saver, threads)).toEqual(before);
  }, 120_000);
});
