/**
 * Redis away under an app: a call fails within the bound the client was given, says what is down and what to set,
 * and a write reported failed is not applied when the server comes back. `commandTimeout`, which docs/redis.md
 * warns against, is shown doing exactly that.
 */
import { emptyCheckpoint, uuid6, type Checkpoint } from "@langchain/langgraph-checkpoint";
import { Redis, type RedisOptions } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IORedisSaver, RedisUnavailableError, resilientRedisOptions } from "../../src/redis/index.js";
import { hasRedisBinary, startRedis, type RedisServer } from "../support/servers/redis-servers.js";

const available = hasRedisBinary();
if (!available && process.env.CI === "true")
  throw new Error("redis-server is not installed; CI requires it for the Redis outage tests.");
if (!available) console.warn("Skipping Redis outage tests: install redis-server to run them.");

const OUTAGE_MS = 2000;

function checkpoint(): Checkpoint {
  const c = emptyCheckpoint();
  c.id = uuid6(-1);
  c.channel_values = { messages: ["hello"] };
  c.channel_versions = { messages: 1 };
  return c;
}

describe.runIf(available)("IORedisSaver while Redis is down", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A saver on its own client; the server is stopped before `during` and started after it. */
  async function throughOutage(options: RedisOptions, during: (saver: IORedisSaver) => Promise<void>) {
    const client = new Redis(server.url, options);
    client.on("error", () => {}); // reconnection attempts report here; the calls are asserted
    const saver = new IORedisSaver(client, { keyPrefix: `outage-${uuid6(-1)}` });
    await client.ping();
    await server.stop();
    try {
      await during(saver);
    } finally {
      await server.start();
    }
    return saver;
  }

  /** Whether the checkpoint is stored once the client has reconnected and sent anything it still held. */
  async function storedAfterReconnect(saver: IORedisSaver, thread: string, id: string) {
    await saver.client.ping();
    await new Promise((r) => setTimeout(r, 300));
    const found = await saver.getTuple({ configurable: { thread_id: thread, checkpoint_id: id } });
    saver.client.disconnect();
    return found !== undefined;
  }

  it("fails a read within outageMs, naming the outage and the setting, and reads again once Redis is back", async () => {
    const saver = await throughOutage(resilientRedisOptions({ outageMs: OUTAGE_MS }), async (saver) => {
      const started = Date.now();
      const error = await saver.getTuple({ configurable: { thread_id: "down" } }).catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(RedisUnavailableError);
      expect((error as Error).message).toMatch(/^Redis is unreachable .*resilientRedisOptions\(\{ outageMs \}\)/);
      // It waited for the server, then gave up within the bound.
      expect(elapsed).toBeGreaterThan(OUTAGE_MS / 2);
      expect(elapsed).toBeLessThan(OUTAGE_MS + 1000);
    });
    await expect(saver.getTuple({ configurable: { thread_id: "down" } })).resolves.toBeUndefined();
    saver.client.disconnect();
  });

  it("never applies a write it reported failed once Redis is back", async () => {
    const written = checkpoint();
    const saver = await throughOutage(resilientRedisOptions({ outageMs: OUTAGE_MS }), async (saver) => {
      await expect(
        saver.put(
          { configurable: { thread_id: "write" } },
          written,
          { source: "loop", step: 0, parents: {} },
          {
            messages: 1,
          },
        ),
      ).rejects.toBeInstanceOf(RedisUnavailableError);
    });
    expect(await storedAfterReconnect(saver, "write", written.id)).toBe(false);
  });

  it("with commandTimeout instead, applies a write it reported failed once Redis is back", async () => {
    const written = checkpoint();
    const saver = await throughOutage({ commandTimeout: 500, retryStrategy: () => 100 }, async (saver) => {
      await expect(
        saver.put(
          { configurable: { thread_id: "timeout" } },
          written,
          { source: "loop", step: 0, parents: {} },
          {
            messages: 1,
          },
        ),
      ).rejects.toThrow("Command timed out");
    });
    expect(await storedAfterReconnect(saver, "timeout", written.id)).toBe(true);
  });
});
