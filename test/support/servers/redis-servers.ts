/**
 * Private redis-server processes for tests that restart, kill or count
 * commands on their server, and a real Redis Cluster of three masters, all on
 * free loopback ports, started from the `redis-server` binary and stopped afterwards.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

export interface RedisServer {
  port: number;
  url: string;
  /** Stops the process (as a crash would: no save, connections dropped). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/** Whether the redis-server binary is installed. */
export function hasRedisBinary(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitForPing(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const client = new Redis({
      port,
      host: "127.0.0.1",
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on("error", () => {}); // refused while the server starts: expected
    try {
      await client.connect();
      await client.ping();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      client.disconnect();
    }
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

/** Starts a redis-server; extra arguments are passed through (cluster options). */
export async function startRedis(extra: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "sanitizer-redis-"));
  let child: ChildProcess | undefined;
  const server = {
    port,
    url: `redis://127.0.0.1:${port}`,
    start: async () => {
      child = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, ...extra],
        { stdio: "ignore" },
      );
      await waitForPing(port);
    },
    stop: async () => {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    },
  } as RedisServer;
  server.close = async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  await server.start();
  // A crashed test run must not leave servers behind.
  process.once("exit", () => child?.kill("SIGKILL"));
  return server;
}

export interface RedisCluster {
  nodes: RedisServer[];
  /** The node serving `key`'s slot as master now. */
  masterOf(key: string): Promise<RedisServer>;
  /** Resolves once every running node sees all slots served (after a failover, or a killed node's restart). */
  healthy(): Promise<void>;
  /**
   * Kills a master as a crash would. The function it resolves with waits until the master's replica serves its slots,
   * then starts the node again (it rejoins as that replica's replica) and waits for the Cluster to be healthy.
   */
  kill(master: RedisServer): Promise<() => Promise<void>>;
  stop(): Promise<void>;
}

/** Asks the running nodes one at a time until one answers. */
async function askAny<T>(nodes: RedisServer[], ask: (client: Redis) => Promise<T>): Promise<T> {
  let last: unknown;
  for (const node of nodes) {
    const client = new Redis(node.port, "127.0.0.1", { lazyConnect: true, retryStrategy: () => null });
    client.on("error", () => {}); // a stopped node: the next one is asked
    try {
      await client.connect();
      return await ask(client);
    } catch (error) {
      last = error;
    } finally {
      client.disconnect();
    }
  }
  throw last;
}

/**
 * Starts a cluster covering all 16384 slots: three masters, each with `replicas` replicas that take over when it
 * dies (after `cluster-node-timeout`, 2 s, and an election).
 */
export async function startCluster({ replicas = 0 }: { replicas?: number } = {}): Promise<RedisCluster> {
  const nodes = await Promise.all(
    Array.from({ length: 3 * (1 + replicas) }, () =>
      startRedis(["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000"]),
    ),
  );
  execFileSync(
    "redis-cli",
    [
      "--cluster",
      "create",
      ...nodes.map((n) => `127.0.0.1:${n.port}`),
      "--cluster-replicas",
      String(replicas),
      "--cluster-yes",
    ],
    { stdio: "pipe" },
  );
  /** CLUSTER SLOTS: ranges of slots, each with its master's address first. */
  const slotMap = (askFrom = nodes) => askAny(askFrom, (client) => client.cluster("SLOTS"));
  const cluster: RedisCluster = {
    nodes,
    kill: async (master) => {
      await master.stop();
      return async () => {
        const others = nodes.filter((n) => n !== master);
        for (let attempt = 0; ; attempt++) {
          if (!(await slotMap(others)).some(([, , servedBy]) => servedBy?.[1] === master.port)) break;
          if (attempt > 300) throw new Error(`no replica took over from 127.0.0.1:${master.port}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        await master.start();
        await cluster.healthy();
      };
    },
    masterOf: async (key) => {
      const slot = Number(await askAny(nodes, (client) => client.cluster("KEYSLOT", key)));
      const port = (await slotMap()).find(([from, to]) => slot >= from && slot <= to)![2]![1];
      return nodes.find((n) => n.port === port)!;
    },
    healthy: async () => {
      for (let attempt = 0; attempt < 300; attempt++) {
        const states = await Promise.all(
          nodes.map(
            (node) =>
              askAny([node], async (client) => {
                const info = String(await client.cluster("INFO"));
                const role = String(await client.info("replication"));
                return info.includes("cluster_state:ok") && !role.includes("master_link_status:down");
              }).catch(() => true), // a node that is stopped has no say
          ),
        );
        if (states.every(Boolean)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("the Redis Cluster did not become healthy");
    },
    stop: async () => void (await Promise.all(nodes.map((n) => n.close()))),
  };
  await cluster.healthy();
  return cluster;
}
