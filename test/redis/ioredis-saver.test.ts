// IORedisSaver on its own: conformance on a server and on a real cluster, key layout, TTL, faults.
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import {
  JsonPlusSerializer,
  MemorySaver,
  emptyCheckpoint,
  uuid6,
  type Checkpoint,
} from "@langchain/langgraph-checkpoint";
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidOptionError, SanitizingCheckpointer } from "../../src/index.js";
import { IORedisSaver } from "../../src/redis/index.js";
import {
  hasRedisBinary,
  startCluster,
  startRedis,
  type RedisCluster,
  type RedisServer,
} from "../support/servers/redis-servers.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { agentModel, cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";
import { deleteKeys } from "../support/savers/savers.js";
import { thrownBy } from "../support/thrown.js";

const available = hasRedisBinary();
if (!available && process.env.CI === "true")
  throw new Error("redis-server is not installed; CI requires it for the IORedisSaver tests.");
if (!available) console.warn("Skipping IORedisSaver tests: install redis-server to run them.");

let prefixes = 0;
const nextPrefix = () => `saver-test-${process.pid}-${prefixes++}`;

function checkpointWith(values: Record<string, unknown>): Checkpoint {
  const checkpoint = emptyCheckpoint();
  checkpoint.id = uuid6(-1);
  checkpoint.channel_values = values;
  checkpoint.channel_versions = Object.fromEntries(Object.keys(values).map((k) => [k, 1]));
  return checkpoint;
}

describe.runIf(available)("IORedisSaver", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("conformance on a single server", () => {
    validate({
      checkpointerName: "IORedisSaver",
      createCheckpointer: () => new IORedisSaver(new Redis(server.url), { keyPrefix: nextPrefix() }),
      destroyCheckpointer: async (saver: IORedisSaver) => {
        await deleteKeys(saver.client as Redis, "saver-test");
        await (saver.client as Redis).quit();
      },
    });
  });

  it("keeps ids with : { } | spaces and non-ASCII text apart", async () => {
    const saver = new IORedisSaver(new Redis(server.url), { keyPrefix: nextPrefix() });
    const ids: Array<[string, string]> = [
      ["a:b", "c"],
      ["a", "b:c"],
      ["{tag}", ""],
      ["tag", ""],
      ["x|y", "p|q"],
      ["x", "y|p|q"],
      ["스레드 1", "하위 그래프:작업"],
      ["스레드", "1 하위 그래프:작업"],
      ["sp ace", "%3A"],
      ["sp%20ace", ":"],
    ];
    for (const [thread_id, checkpoint_ns] of ids) {
      await saver.put(
        { configurable: { thread_id, checkpoint_ns } },
        checkpointWith({ owner: `${thread_id}/${checkpoint_ns}` }),
        { source: "loop", step: 0, parents: {} },
        { owner: 1 },
      );
    }
    for (const [thread_id, checkpoint_ns] of ids) {
      const tuple = await saver.getTuple({ configurable: { thread_id, checkpoint_ns } });
      expect(tuple?.checkpoint.channel_values.owner).toBe(`${thread_id}/${checkpoint_ns}`);
      expect(tuple?.config.configurable).toMatchObject({ thread_id, checkpoint_ns });
    }
    const tags = (await saver.client.keys(`${(saver as unknown as { keys: { prefix: string } }).keys.prefix}:*`)).map(
      (k) => k.match(/\{([^}]*)\}/)?.[1],
    );
    expect(tags.every((t) => t === undefined || !/[{}:|\s]/.test(t))).toBe(true);
    // threads() gives the doctor every (thread, namespace) pair back by its own id, filters included.
    const listed = [];
    for await (const ref of saver.threads()) listed.push([ref.threadId, ref.checkpointNs]);
    expect(listed.sort()).toEqual([...ids].sort());
    const oneThread = [];
    for await (const ref of saver.threads({ threadId: "x", checkpointNs: "y|p|q" })) oneThread.push(ref);
    expect(oneThread).toEqual([{ threadId: "x", checkpointNs: "y|p|q" }]);
    await (saver.client as Redis).quit();
  });

  it("handles any string id the other savers handle: lone surrogates, control characters", async () => {
    const saver = new IORedisSaver(new Redis(server.url), { keyPrefix: nextPrefix() });
    const memory = new MemorySaver();
    const ids: Array<[string, string]> = [
      ["x\uD800", ""],
      ["\uDC00y", "ns\uDBFF"],
      ["%uD800", ""],
      ["\u001b[2J\u001b[31mred", "line\nbreak"],
    ];
    for (const target of [saver, memory]) {
      // A read of a thread that was never written returns nothing.
      expect(await target.getTuple({ configurable: { thread_id: "x\uD800", checkpoint_ns: "" } })).toBeUndefined();
      for (const [thread_id, checkpoint_ns] of ids) {
        const config = await target.put(
          { configurable: { thread_id, checkpoint_ns } },
          checkpointWith({ owner: `${thread_id}/${checkpoint_ns}` }),
          { source: "loop", step: 0, parents: {} },
          { owner: 1 },
        );
        await target.putWrites(config, [["owner", "written"]], "task-1");
      }
    }
    for (const [thread_id, checkpoint_ns] of ids) {
      const config = { configurable: { thread_id, checkpoint_ns } };
      const [stored, expected] = [await saver.getTuple(config), await memory.getTuple(config)];
      expect(stored?.checkpoint.channel_values).toEqual(expected?.checkpoint.channel_values);
      expect(stored?.config.configurable).toMatchObject({ thread_id, checkpoint_ns });
      expect(stored?.pendingWrites).toEqual(expected?.pendingWrites);
      const listed = [];
      for await (const tuple of new SanitizingCheckpointer(saver).list(config)) listed.push(tuple.checkpoint.id);
      expect(listed).toEqual([stored!.checkpoint.id]);
    }
    // "%uD800" and the lone surrogate it spells stay two threads.
    expect((await saver.getTuple({ configurable: { thread_id: "%uD800" } }))?.checkpoint.channel_values.owner).toBe(
      "%uD800/",
    );
    const everyThread = [];
    for await (const ref of saver.threads()) everyThread.push([ref.threadId, ref.checkpointNs]);
    expect(everyThread.sort()).toEqual([...ids].sort());
    await saver.deleteThread("x\uD800");
    expect(await saver.getTuple({ configurable: { thread_id: "x\uD800" } })).toBeUndefined();
    await (saver.client as Redis).quit();
  });

  it("never sends KEYS or SCAN while graphs run, read state and list history", async () => {
    const admin = new Redis(server.url);
    await admin.config("RESETSTAT");
    const saver = new IORedisSaver(new Redis(server.url), { keyPrefix: nextPrefix() });
    const checkpointer = new SanitizingCheckpointer(saver);
    await cancelFirstTurn(checkpointer, "after-one-of-two-parallel-tools", "no-scan");
    await nextTurn(checkpointer, "anthropic", "no-scan");
    const graph = reactGraph({ model: agentModel("openai"), tools: {} }).compile(checkpointer);
    await graph.getState({ configurable: { thread_id: "no-scan" } });
    for await (const _ of graph.getStateHistory({ configurable: { thread_id: "no-scan" } }));
    await saver.deleteThread("no-scan");
    const stats = String(await admin.info("commandstats"));
    expect(stats).toMatch(/cmdstat_multi/);
    expect(stats).not.toMatch(/cmdstat_(keys|scan|hscan|sscan|zscan):/);
    await admin.quit();
    await (saver.client as Redis).quit();
  });

  it("keeps the original timeline intact when a fork from an earlier checkpoint writes new values", async () => {
    const saver = new IORedisSaver(new Redis(server.url), { keyPrefix: nextPrefix() });
    const graph = reactGraph({
      model: agentModel("anthropic"),
      tools: { search: () => "Paris: 15°C", lookup: () => "Seoul: 12°C" },
    }).compile(saver);
    const config = { configurable: { thread_id: "fork" } };
    await graph.invoke({ messages: [new HumanMessage("What is the weather in Paris and Seoul?")] }, config);
    const history = [];
    for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
    const before = history.find((s) => s.next.includes("tools"))!;
    const after = history.find((s) => s.next.includes("agent") && s.values.messages.length === 4)!;
    const calls = before.values.messages.at(-1).tool_calls as { id: string; name: string }[];
    const fork = await graph.updateState(
      before.config,
      { messages: calls.map((c) => new ToolMessage({ content: "edited", tool_call_id: c.id, name: c.name })) },
      "tools",
    );

    const forked = await graph.getState(fork);
    const original = await graph.getState(after.config);
    expect(forked.values.messages.slice(2).map((m: ToolMessage) => m.content)).toEqual(["edited", "edited"]);
    expect(original.values.messages.slice(2).map((m: ToolMessage) => m.content)).toEqual([
      "Paris: 15°C",
      "Seoul: 12°C",
    ]);
    await (saver.client as Redis).quit();
  });

  it("expires every key of a thread after ttlSeconds, refreshed by each write", async () => {
    const prefix = nextPrefix();
    const saver = new IORedisSaver(new Redis(server.url), { keyPrefix: prefix, ttlSeconds: 600 });
    const config = await saver.put(
      { configurable: { thread_id: "ttl", checkpoint_ns: "" } },
      checkpointWith({ a: 1 }),
      { source: "loop", step: 0, parents: {} },
      { a: 1 },
    );
    await saver.put(
      { configurable: { thread_id: "ttl", checkpoint_ns: "child:1" } },
      checkpointWith({ b: 1 }),
      { source: "loop", step: 0, parents: {} },
      { b: 1 },
    );
    await saver.putWrites(config, [["a", 2]], "task");
    const threadKeys = (await saver.client.keys(`${prefix}:{ttl}:*`)).sort();
    expect(threadKeys.length).toBeGreaterThanOrEqual(9);
    for (const key of threadKeys) {
      const ttl = await saver.client.ttl(key);
      expect(ttl, key).toBeGreaterThan(590);
      expect(ttl, key).toBeLessThanOrEqual(600);
    }
    await (saver.client as Redis).quit();
  });

  it("stores nothing when the serializer refuses a value, and passes its error on", async () => {
    // The stock JsonPlusSerializer never refuses (it stores a placeholder text); a strict one may.
    const stock = new JsonPlusSerializer();
    const strict = {
      dumpsTyped: async (value: unknown) => (JSON.stringify(value), stock.dumpsTyped(value)),
      loadsTyped: (type: string, data: Uint8Array | string) => stock.loadsTyped(type, data),
    };
    const prefix = nextPrefix();
    const saver = new IORedisSaver(new Redis(server.url), { keyPrefix: prefix, serde: strict });
    const bad = checkpointWith({ good: "x", bad: 10n });
    await expect(
      saver.put(
        { configurable: { thread_id: "bad" } },
        bad,
        { source: "loop", step: 0, parents: {} },
        { good: 1, bad: 1 },
      ),
    ).rejects.toThrow("Do not know how to serialize a BigInt");
    await expect(
      saver.putWrites(
        { configurable: { thread_id: "bad", checkpoint_id: "x" } },
        [
          ["ok", 1],
          ["bad", 1n],
        ],
        "t",
      ),
    ).rejects.toThrow("Do not know how to serialize a BigInt");
    expect(await saver.client.keys(`${prefix}:*`)).toEqual([]);
    await (saver.client as Redis).quit();
  });

  it("opens and closes its own connection from a URL", async () => {
    const saver = new IORedisSaver(server.url, { keyPrefix: nextPrefix() });
    await saver.put(
      { configurable: { thread_id: "url" } },
      checkpointWith({ a: 1 }),
      { source: "loop", step: 0, parents: {} },
      { a: 1 },
    );
    expect(await saver.getTuple({ configurable: { thread_id: "url" } })).toBeDefined();
    await saver.close();
    await expect(saver.client.ping()).rejects.toThrow("Connection is closed.");
  });

  it.each([
    [{ ttlSeconds: 0 }, "ttlSeconds must be a positive whole number of seconds, got 0."],
    [{ waitForReplicas: 0.5 }, "waitForReplicas must be a whole number of replicas, got 0.5."],
    [
      { keyPrefix: "app{1}" },
      'keyPrefix must be a string without "{" or "}" (they would change the hash tag), got "app{1}".',
    ],
  ])("rejects the bad option %j with an InvalidOptionError naming it, before connecting", (options, message) => {
    const build = () => new IORedisSaver(server.url, options);
    expect(build).toThrow(InvalidOptionError);
    expect(build).toThrow(message);
    expect(thrownBy(build)).toMatchObject({ option: Object.keys(options)[0] });
  });

  it("takes only a client or a URL: anything else is a plain TypeError, an argument rather than an option", () => {
    const build = () => new IORedisSaver({} as never);
    expect(build).toThrow("IORedisSaver needs an ioredis Redis or Cluster instance, or a redis:// URL.");
    expect(thrownBy(build)).not.toBeInstanceOf(InvalidOptionError);
  });

  describe("faults", () => {
    it("reports a server that dies mid-run to the caller, keeps what was stored whole, and works once it is back", async () => {
      const faulty = await startRedis();
      const client = new Redis(faulty.url, { maxRetriesPerRequest: 1, retryStrategy: (n) => (n > 3 ? null : 50) });
      client.on("error", () => {}); // the connection errors are expected here; the run's rejection is asserted
      const saver = new IORedisSaver(client, { keyPrefix: "fault" });
      const graph = reactGraph({
        model: agentModel("anthropic"),
        tools: {
          search: async () => {
            await faulty.stop();
            return "Paris: 15°C";
          },
          lookup: () => "Seoul: 12°C",
        },
      }).compile(new SanitizingCheckpointer(saver));
      const config = { configurable: { thread_id: "crash" }, durability: "sync" as const };
      await expect(
        graph.invoke({ messages: [new HumanMessage("What is the weather in Paris and Seoul?")] }, config),
      ).rejects.toThrow();

      await faulty.start();
      const fresh = new IORedisSaver(new Redis(faulty.url), { keyPrefix: "fault" });
      const after = reactGraph({ model: agentModel("anthropic"), tools: {} }).compile(
        new SanitizingCheckpointer(fresh),
      );
      const state = await after.invoke(
        { messages: [new HumanMessage("hello again")] },
        { configurable: { thread_id: "crash" } },
      );
      expect(state.messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
      client.disconnect();
      await (fresh.client as Redis).quit();
      await faulty.close();
    });

    it("survives its connection being killed mid-run: every stored checkpoint stays loadable", async () => {
      const admin = new Redis(server.url);
      const prefix = nextPrefix();
      const saver = new IORedisSaver(new Redis(server.url), { keyPrefix: prefix });
      saver.client.on("error", () => {}); // the killed connection reports here; ioredis reconnects
      const checkpointer = new SanitizingCheckpointer(saver);
      const graph = reactGraph({
        model: agentModel("openai"),
        tools: {
          search: async () => {
            await admin.call("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
            return "Paris: 15°C";
          },
          lookup: () => "Seoul: 12°C",
        },
      }).compile(checkpointer);
      const config = { configurable: { thread_id: "killed" } };
      await graph
        .invoke({ messages: [new HumanMessage("What is the weather in Paris and Seoul?")] }, config)
        .catch(() => undefined);
      for await (const tuple of saver.list(config)) {
        const versions = Object.keys(tuple.checkpoint.channel_versions).filter((c) => c === "messages");
        for (const channel of versions)
          expect(tuple.checkpoint.channel_values[channel], `${tuple.checkpoint.id} ${channel}`).toBeDefined();
      }
      const { messages } = await nextTurn(checkpointer, "anthropic", "killed");
      expect(messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
      await admin.quit();
      await (saver.client as Redis).quit();
    });
  });
});

describe.runIf(available)("IORedisSaver on a real 3-master Redis Cluster", () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  const connect = () => new Cluster(cluster.nodes.map((n) => ({ host: "127.0.0.1", port: n.port })));

  validate({
    checkpointerName: "IORedisSaver",
    createCheckpointer: () => new IORedisSaver(connect(), { keyPrefix: nextPrefix() }),
    destroyCheckpointer: async (saver: IORedisSaver) => {
      const client = saver.client as Cluster;
      await Promise.all(client.nodes("master").map((node) => node.flushall()));
      await client.quit();
    },
  });

  it("runs a cancelled turn and its repair across slots", async () => {
    const saver = new IORedisSaver(connect(), { keyPrefix: nextPrefix() });
    const checkpointer = new SanitizingCheckpointer(saver);
    for (const thread of ["slot-a", "slot-b", "slot-c", "slot-d"]) {
      await cancelFirstTurn(checkpointer, "during-tools", thread);
      const { messages } = await nextTurn(checkpointer, "bedrock", thread);
      expect(messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
    }
    await (saver.client as Cluster).quit();
  });
});
