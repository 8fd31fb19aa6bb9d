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

async function freePort(): Promise<number> {
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
  stop(): Promise<void>;
}

/** Starts three masters and joins them into one cluster covering all 16384 slots. */
export async function startCluster(): Promise<RedisCluster> {
  const nodes = await Promise.all(
    [0, 1, 2].map(() =>
      startRedis(["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000"]),
    ),
  );
  execFileSync(
    "redis-cli",
    ["--cluster", "create", ...nodes.map((n) => `127.0.0.1:${n.port}`), "--cluster-replicas", "0", "--cluster-yes"],
    { stdio: "pipe" },
  );
  // Wait until every node agrees the cluster is up.
  for (const node of nodes) {
    const client = new Redis(node.port, "127.0.0.1");
    for (let attempt = 0; attempt < 100; attempt++) {
      const info = await client.cluster("INFO");
      if (String(info).includes("cluster_state:ok")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    client.disconnect();
  }
  return { nodes, stop: async () => void (await Promise.all(nodes.map((n) => n.close()))) };
}
