/**
 * The real servers some tests need. On a user's machine a missing server
 * skips those tests with a message saying how to start it; under CI=true it
 * fails the run instead, so a green CI always means the tests ran.
 */
import { Redis } from "ioredis";
import pg from "pg";

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
export const POSTGRES_URL = process.env.POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

async function reachable(probe: () => Promise<unknown>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch {
    return false;
  }
}

async function redisUp(): Promise<boolean> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  client.on("error", () => {}); // an unreachable server is reported by the return value
  try {
    return await reachable(async () => {
      await client.connect();
      await client.ping();
    });
  } finally {
    client.disconnect();
  }
}

async function postgresUp(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  const ok = await reachable(() => client.connect().then(() => client.query("select 1")));
  await client.end().catch(() => {});
  return ok;
}

const HOW_TO_START: Record<"redis" | "postgres", string> = {
  redis: 'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no',
  postgres: "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
};

/**
 * Whether the server is up. When it is not: under CI=true, throws (the run fails);
 * otherwise prints why the tests that need it are skipped.
 */
export async function serviceAvailable(service: "redis" | "postgres"): Promise<boolean> {
  const up = service === "redis" ? await redisUp() : await postgresUp();
  if (up) return true;
  const url = service === "redis" ? REDIS_URL : POSTGRES_URL;
  if (process.env.CI === "true")
    throw new Error(`${service} is unreachable at ${url}; CI requires it. Start it with: ${HOW_TO_START[service]}`);
  console.warn(`Skipping ${service} tests: no server at ${url}. Start one with: ${HOW_TO_START[service]}`);
  return false;
}
