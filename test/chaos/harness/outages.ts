/**
 * The restart and failover phase: servers of the soak's own, taken away under a running app and brought back.
 * Postgres is restarted under `FastPostgresSaver.fromConnString`; a redis-server (with an append-only file, so a
 * restart keeps what it acknowledged) is restarted under `new IORedisSaver(url)`; a master of a 6-node Redis Cluster
 * is killed under `resilientClusterOptions` (the saver waiting for a replica of each write), its replica taking over. Each outage starts in a tool of one thread's
 * turn, at a seeded instant, while the other threads' turns run. Once the server is back: every checkpoint stored
 * before the outage is still there and loads, no write that reported failure is stored, and every thread's next
 * turn, to a model as strict as Bedrock, is answered. The app is this process: an `error` event nobody hears, on
 * a pool or a client, would end it, and the run with it.
 */
import { HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver, Checkpoint } from "@langchain/langgraph-checkpoint";
import { Cluster } from "ioredis";
import { SanitizingCheckpointer } from "../../../src/index.js";
import { FastPostgresSaver } from "../../../src/postgres/index.js";
import { IORedisSaver, resilientClusterOptions } from "../../../src/redis/index.js";
import { encodeId } from "../../../src/redis/keys.js";
import { hasPostgresBinaries, startPostgres } from "../../support/servers/postgres-server.js";
import { reactGraph } from "../../support/graphs/react-graph.js";
import { hasRedisBinary, startCluster, startRedis } from "../../support/servers/redis-servers.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel, nextTurn } from "../../support/graphs/scenarios.js";
import { ProviderRejection } from "../../support/graphs/strict-chat-model.js";
import type { Backend } from "./backends.js";
import type { OutageFigures } from "./metrics.js";
import type { SoakOptions } from "./options.js";
import { Random } from "./random.js";

/** What the phase takes of the soak's options. */
type OutageOptions = Pick<SoakOptions, "seed" | "outages" | "outageThreads">;

/** An open backend of the phase: its saver, and how its server goes away. */
interface OutageTarget {
  saver: BaseCheckpointSaver;
  /**
   * Takes the server away for the thread `thread`; resolves with what brings it back (called at once, while the
   * turns go on), which resolves once the server, or the replica that took over, serves again.
   */
  down(random: Random, thread: string): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function postgresRestarts(): Promise<OutageTarget> {
  const server = await startPostgres();
  const saver = FastPostgresSaver.fromConnString(server.url);
  await saver.setup();
  return {
    saver,
    down: async (random) => {
      await server.stop(random.pick(["fast", "immediate"] as const));
      const pause = random.int(0, 800);
      return async () => {
        await sleep(pause);
        await server.start();
      };
    },
    close: async () => {
      await saver.end();
      await server.close();
    },
  };
}

async function redisRestarts(): Promise<OutageTarget> {
  const server = await startRedis(["--appendonly", "yes", "--appendfsync", "always"]);
  const saver = new IORedisSaver(server.url, { keyPrefix: "outages" });
  return {
    saver,
    down: async (random) => {
      await server.stop();
      const pause = random.int(0, 1500);
      return async () => {
        await sleep(pause);
        await server.start();
      };
    },
    close: async () => {
      await saver.close();
      await server.close();
    },
  };
}

async function clusterFailovers(): Promise<OutageTarget> {
  const cluster = await startCluster({ replicas: 1 });
  const client = new Cluster(
    cluster.nodes.map((n) => ({ host: "127.0.0.1", port: n.port })),
    resilientClusterOptions({ outageMs: 20_000 }),
  );
  client.on("error", () => {}); // a killed master's connection reports here; each call reports its own failure
  return {
    saver: new IORedisSaver(client, { keyPrefix: "outages", waitForReplicas: 1 }),
    down: async (_random, thread) => cluster.kill(await cluster.masterOf(`{${encodeId(thread)}}`)),
    close: async () => {
      client.disconnect();
      await cluster.stop();
    },
  };
}

/** A backend of the phase, opened when its turn comes. */
export interface OutageBackend {
  name: string;
  open(): Promise<OutageTarget>;
}

/**
 * The outage backends for the soak's `backends`: Postgres restarted under FastPostgresSaver with `fast-postgres`,
 * Redis restarted and a Cluster master killed with `redis`. A backend whose server binaries are missing is skipped
 * with a message, or fails the run under CI=true.
 */
export function outageTargets(backends: readonly Backend[]): OutageBackend[] {
  const wanted: [Backend, boolean, string, OutageBackend[]][] = [
    [
      "fast-postgres",
      hasPostgresBinaries(),
      "Postgres's server binaries (apt-get install -y postgresql)",
      [{ name: "FastPostgresSaver, Postgres restarted", open: postgresRestarts }],
    ],
    [
      "redis",
      hasRedisBinary(),
      "redis-server (apt-get install -y redis-server)",
      [
        { name: "IORedisSaver, Redis restarted", open: redisRestarts },
        { name: "IORedisSaver, Cluster master killed", open: clusterFailovers },
      ],
    ],
  ];
  return wanted.flatMap(([backend, installed, missing, targets]) => {
    if (!backends.includes(backend)) return [];
    if (installed) return targets;
    if (process.env.CI === "true") throw new Error(`the outage phase needs ${missing}; CI requires it.`);
    console.warn(`Skipping the outage phase of ${backend}: install ${missing}.`);
    return [];
  });
}

/** Every checkpoint of `thread`, and whether each loads. */
async function checkpointsOf(saver: BaseCheckpointSaver, thread: string): Promise<Map<string, boolean>> {
  const found = new Map<string, boolean>();
  for await (const tuple of saver.list({ configurable: { thread_id: thread } })) {
    const config = { configurable: { thread_id: thread, checkpoint_ns: "", checkpoint_id: tuple.checkpoint.id } };
    found.set(
      tuple.checkpoint.id,
      await saver.getTuple(config).then(
        (t) => t !== undefined,
        () => false,
      ),
    );
  }
  return found;
}

/** `saver`, recording the checkpoint of every `put` that reported failure. */
function recordingFailedPuts(saver: BaseCheckpointSaver, failed: { thread: string; checkpoint: Checkpoint }[]) {
  return new Proxy(saver, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key !== "put") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: Parameters<BaseCheckpointSaver["put"]>) => {
        try {
          return await target.put(...args);
        } catch (error) {
          failed.push({ thread: String(args[0].configurable?.thread_id), checkpoint: args[1] });
          throw error;
        }
      };
    },
  });
}

/** Runs the phase on one backend. */
export async function soakOutages(
  backend: OutageBackend,
  options: OutageOptions,
  log: (line: string) => void,
): Promise<OutageFigures> {
  const target = await backend.open();
  const figures: OutageFigures = {
    backend: backend.name,
    outages: 0,
    turns: 0,
    failedTurns: 0,
    lost: 0,
    unloadable: 0,
    rejected: 0,
    failedWrites: 0,
    landedAfterFailure: 0,
  };
  const failedPuts: { thread: string; checkpoint: Checkpoint }[] = [];
  const checkpointer = new SanitizingCheckpointer(recordingFailedPuts(target.saver, failedPuts));
  const random = new Random(options.seed).fork(backend.name);
  const threads = Array.from({ length: options.outageThreads }, (_, i) => `outage-${i}`);
  try {
    for (const thread of threads) await nextTurn(checkpointer, "bedrock", thread, FIRST_QUESTION);
    for (let round = 0; round < options.outages; round++) {
      const before = new Map(
        await Promise.all(threads.map(async (t) => [t, await checkpointsOf(target.saver, t)] as const)),
      );
      const starter = random.pick(threads);
      let recovered: Promise<void> | undefined;
      const turns = threads.map(async (thread) => {
        const delayMs = random.int(0, 150);
        const graph = reactGraph({
          model: agentModel("bedrock"),
          tools: {
            search: async () => {
              if (thread === starter) {
                await sleep(delayMs);
                // The server comes back (or a replica takes over) while the turns go on.
                recovered = (await target.down(random, thread))();
              }
              return "Paris: 15°C";
            },
            lookup: () => LOOKUP_RESULT,
          },
        }).compile(checkpointer);
        const config = { configurable: { thread_id: thread }, durability: "sync" as const };
        return graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config).then(
          () => undefined,
          (error: unknown) => error,
        );
      });
      const errors = await Promise.all(turns);
      await recovered;
      figures.outages++;
      figures.turns += errors.length;
      // A turn may fail while its server is away; a provider may never reject what the sanitizer sent.
      figures.failedTurns += errors.filter((error) => error !== undefined).length;
      figures.rejected += errors.filter((error) => error instanceof ProviderRejection).length;
      for (const thread of threads) {
        const after = await checkpointsOf(target.saver, thread);
        for (const id of before.get(thread)!.keys()) if (!after.has(id)) figures.lost++;
        for (const loads of after.values()) if (!loads) figures.unloadable++;
      }
      for (const { thread, checkpoint } of failedPuts.splice(0)) {
        figures.failedWrites++;
        const config = { configurable: { thread_id: thread, checkpoint_ns: "", checkpoint_id: checkpoint.id } };
        if ((await target.saver.getTuple(config)) !== undefined) figures.landedAfterFailure++;
      }
      for (const thread of threads) {
        const answered = await nextTurn(checkpointer, "bedrock", thread).then(
          ({ messages }) => messages.at(-1)?.content === "Happy to help with that.",
          () => false,
        );
        if (!answered) figures.rejected++;
      }
      log(`${backend.name}: outage ${round + 1}, ${JSON.stringify(figures)}`);
    }
  } finally {
    await target.close();
  }
  return figures;
}
