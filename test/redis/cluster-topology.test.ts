/**
 * IORedisSaver on a real 6-node Redis Cluster (three masters, each with a replica), as production runs it: many
 * threads at once, a cancelled turn then a new message, a master killed mid-turn, a turn on a healthy shard while
 * another shard fails over, and the doctor. Clients use `resilientClusterOptions` and savers `waitForReplicas: 1`, as
 * docs/redis.md says.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { DoctorReport } from "../../src/cli/doctor.js";
import { SanitizingCheckpointer } from "../../src/index.js";
import { IORedisSaver, resilientClusterOptions } from "../../src/redis/index.js";
import { encodeId } from "../../src/redis/keys.js";
import { hasRedisBinary, startCluster, type RedisCluster } from "../support/servers/redis-servers.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel, cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";

const available = hasRedisBinary();
if (!available && process.env.CI === "true")
  throw new Error("redis-server is not installed; CI requires it for the Redis Cluster tests.");
if (!available) console.warn("Skipping Redis Cluster tests: install redis-server to run them.");

/** Longer than a failover here: `cluster-node-timeout` is 2 s, and the election takes about as long again. */
const OUTAGE_MS = 15_000;

let prefixes = 0;
const nextPrefix = () => `cluster-test-${process.pid}-${prefixes++}`;

/** The hash tag IORedisSaver gives every key of `thread`: the slot of `{<thread>}` is the thread's slot. */
const threadTag = (thread: string) => `{${encodeId(thread)}}`;

describe.runIf(available)("IORedisSaver on a 6-node Redis Cluster", () => {
  let cluster: RedisCluster;
  const clients: Cluster[] = [];
  const connect = () => {
    const client = new Cluster(
      cluster.nodes.map((n) => ({ host: "127.0.0.1", port: n.port })),
      resilientClusterOptions({ outageMs: OUTAGE_MS }),
    );
    client.on("error", () => {}); // a killed master's connection reports here; the calls say whether they failed
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    cluster = await startCluster({ replicas: 1 });
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await cluster?.stop();
  });

  /** Every checkpoint id of the thread, newest first. */
  async function checkpointIds(saver: IORedisSaver, thread: string): Promise<string[]> {
    const ids = [];
    for await (const tuple of saver.list({ configurable: { thread_id: thread } })) ids.push(tuple.checkpoint.id);
    return ids;
  }

  it("runs 50 threads at once: each cancelled turn is followed by an answered one, across every slot, then deletes them", async () => {
    const saver = new IORedisSaver(connect(), { keyPrefix: nextPrefix(), waitForReplicas: 1 });
    const checkpointer = new SanitizingCheckpointer(saver);
    const threads = Array.from({ length: 50 }, (_, i) => `parallel-${i}`);
    const answers = await Promise.all(
      threads.map(async (thread) => {
        await cancelFirstTurn(checkpointer, "during-tools", thread);
        const { messages } = await nextTurn(checkpointer, "bedrock", thread);
        return messages.at(-1)?.content;
      }),
    );
    expect(answers).toEqual(threads.map(() => "Happy to help with that."));
    const masters = new Set(await Promise.all(threads.map((t) => cluster.masterOf(threadTag(t)))));
    expect(masters.size).toBe(3);
    // list() without a thread_id finds every thread on every shard.
    const listed = new Set<string>();
    for await (const tuple of saver.list({})) listed.add(tuple.config.configurable!.thread_id as string);
    expect([...listed].sort()).toEqual([...threads].sort());
    await Promise.all(threads.map((thread) => saver.deleteThread(thread)));
    for await (const tuple of saver.list({})) expect.fail(`${tuple.config.configurable!.thread_id} was deleted`);
  });

  it("rides out the thread's master killed mid-turn: the turn completes, nothing is lost, the thread continues", async () => {
    const saver = new IORedisSaver(connect(), { keyPrefix: nextPrefix(), waitForReplicas: 1 });
    const checkpointer = new SanitizingCheckpointer(saver);
    const thread = "failover";
    await nextTurn(checkpointer, "anthropic", thread);
    const before = await checkpointIds(saver, thread);
    let restore: () => Promise<void> = async () => {};
    const graph = reactGraph({
      model: agentModel("anthropic"),
      tools: {
        search: async () => {
          restore = await cluster.kill(await cluster.masterOf(threadTag(thread)));
          return "Paris: 15°C";
        },
        lookup: () => LOOKUP_RESULT,
      },
    }).compile(checkpointer);
    try {
      const state = await graph.invoke(
        { messages: [new HumanMessage(FIRST_QUESTION)] },
        { configurable: { thread_id: thread }, durability: "sync" },
      );
      expect(state.messages.at(-1)).toMatchObject({ content: "Paris is 15°C, Seoul is 12°C." });
    } finally {
      await restore();
    }
    const after = await checkpointIds(saver, thread);
    expect(after.slice(-before.length)).toEqual(before);
    expect(after.length).toBeGreaterThan(before.length);
    // Every write waited for the master's replica, so a failover loses nothing the saver reported stored.
    const waits = await Promise.all(
      (saver.client as Cluster).nodes("master").map(async (node) => String(await node.info("commandstats"))),
    );
    expect(waits.join("\n")).toMatch(/cmdstat_wait:calls=[1-9]/);
    const { messages } = await nextTurn(checkpointer, "anthropic", thread);
    expect(messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
  }, 60_000);

  it("never makes a thread on a healthy shard wait for another shard's failover", async () => {
    const prefix = nextPrefix();
    const saver = new IORedisSaver(connect(), { keyPrefix: prefix, waitForReplicas: 1 });
    const checkpointer = new SanitizingCheckpointer(saver);
    // The shard that held every thread's registry (`<prefix>:threads`) before: once, each write went there too.
    const failing = await cluster.masterOf(`${prefix}:threads`);
    let thread = "healthy-0";
    for (let i = 1; (await cluster.masterOf(threadTag(thread))) === failing; i++) thread = `healthy-${i}`;
    await nextTurn(checkpointer, "anthropic", thread);
    const restore = await cluster.kill(failing);
    try {
      const started = Date.now();
      await cancelFirstTurn(checkpointer, "during-tools", thread);
      const { messages } = await nextTurn(checkpointer, "bedrock", thread);
      const elapsed = Date.now() - started;
      expect(messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
      // A failover takes about 4 s here; two turns on a healthy shard take a few hundred milliseconds.
      expect(elapsed).toBeLessThan(1500);
    } finally {
      await restore();
    }
  }, 60_000);

  it("lets the doctor scan and fix a store on the Cluster, reached through any one node", async () => {
    const prefix = nextPrefix();
    const saver = new IORedisSaver(connect(), { keyPrefix: prefix, waitForReplicas: 1 });
    const threads = ["doctor-a", "doctor-b", "doctor-c", "doctor-d"];
    for (const thread of threads) await cancelFirstTurn(saver, "during-tools", thread);
    await nextTurn(saver, "anthropic", "doctor-clean", FIRST_QUESTION);
    const doctor = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const args = ["doctor", "--redis", cluster.nodes[0]!.url, "--prefix", prefix, "--json", "--quiet", ...argv];
      const code = await main(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: false });
      expect(err).toEqual([]);
      return { code, report: JSON.parse(out.join("\n")) as DoctorReport };
    };
    const scan = await doctor();
    expect(scan).toMatchObject({ code: 1, report: { scanned: 5, broken: 4 } });
    expect(scan.report.store).toMatch(/^Redis Cluster /);
    expect((await doctor("--fix")).report).toMatchObject({ broken: 4, fixed: 4 });
    expect(await doctor()).toMatchObject({ code: 0, report: { scanned: 5, broken: 0 } });
    // The fixed threads continue on the raw saver, which a strict provider would reject before the fix.
    for (const thread of threads) {
      const { messages } = await nextTurn(saver, "bedrock", thread);
      expect(messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
    }
  });
});
