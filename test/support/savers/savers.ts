/**
 * The savers the tests run against, each a fresh, isolated store, and a way
 * to close it. Backends that need a server join this list in their own module.
 */
import { MemorySaver, type BaseCheckpointSaver, type SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { FastPostgresSaver } from "../../../src/postgres/index.js";
import { IORedisSaver } from "../../../src/redis/index.js";
import { POSTGRES_URL, REDIS_URL, serviceAvailable } from "../servers/services.js";
import { afterEach } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SaverFactory {
  /** The name the conformance suite knows the raw saver by (it skips some tests by name). */
  name: string;
  create(): Promise<BaseCheckpointSaver>;
  destroy(saver: BaseCheckpointSaver): Promise<void>;
  /** A second saver over the same store as `saver`, reading with `serde` (closed with `saver`). */
  reader(saver: BaseCheckpointSaver, serde: SerializerProtocol): BaseCheckpointSaver;
}

const sqliteFiles = new Map<BaseCheckpointSaver, string>();

export const memoryFactory: SaverFactory = {
  name: "MemorySaver",
  create: async () => new MemorySaver(),
  destroy: async () => {},
  reader: (saver, serde) =>
    Object.assign(new MemorySaver(serde), {
      storage: (saver as MemorySaver).storage,
      writes: (saver as MemorySaver).writes,
    }),
};

export const sqliteFactory: SaverFactory = {
  name: "@langchain/langgraph-checkpoint-sqlite",
  create: async () => {
    const dir = mkdtempSync(join(tmpdir(), "sanitizer-sqlite-"));
    const saver = SqliteSaver.fromConnString(join(dir, "checkpoints.sqlite"));
    sqliteFiles.set(saver, dir);
    return saver;
  },
  destroy: async (saver) => {
    (saver as SqliteSaver).db.close();
    const dir = sqliteFiles.get(saver);
    if (dir) rmSync(dir, { recursive: true, force: true });
    sqliteFiles.delete(saver);
  },
  reader: (saver, serde) => new SqliteSaver((saver as SqliteSaver).db, serde),
};

/** A short random suffix for a test's own schema, key prefix or file. */
export const unique = () => randomUUID().replaceAll("-", "").slice(0, 12);

/** A Postgres saver class constructed like the official one (itself, or FastPostgresSaver). */
type PostgresSaverClass = typeof PostgresSaver | typeof FastPostgresSaver;

/** `Saver` on the test database, each instance in its own schema, dropped afterwards. */
function postgresSaverFactory(name: string, Saver: PostgresSaverClass): SaverFactory {
  return {
    name,
    create: async () => {
      const saver = Saver.fromConnString(POSTGRES_URL, { schema: `sanitizer_test_${unique()}` });
      await saver.setup();
      return saver;
    },
    destroy: async (saver) => {
      const { schema } = (saver as unknown as { options: { schema: string } }).options;
      await (saver as PostgresSaver).end();
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
    reader: (saver, serde) => {
      const { pool, options } = saver as unknown as { pool: pg.Pool; options: { schema: string } };
      return new Saver(pool, serde, options);
    },
  };
}

/** The official PostgresSaver. */
export const postgresFactory = postgresSaverFactory("@langchain/langgraph-checkpoint-postgres", PostgresSaver);

/**
 * FastPostgresSaver, the read path of this package over the official tables. Not in
 * `saverFactories`: test/postgres runs it where its reads differ from the official saver's.
 */
export const fastPostgresFactory = postgresSaverFactory("FastPostgresSaver", FastPostgresSaver);

/** Deletes every key under `prefix` (test cleanup only: the saver itself never scans). */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  for await (const keys of client.scanStream({ match: `${prefix}:*`, count: 500 })) {
    if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
  }
}

/** IORedisSaver on the real server, each instance under its own key prefix, deleted afterwards. */
export const redisFactory: SaverFactory = {
  name: "IORedisSaver",
  create: async () => new IORedisSaver(new Redis(REDIS_URL), { keyPrefix: `sanitizer-test-${unique()}` }),
  destroy: async (saver) => {
    const { client } = saver as IORedisSaver;
    await deleteKeys(client as Redis, (saver as unknown as { keys: { prefix: string } }).keys.prefix);
    await (client as Redis).quit();
  },
  reader: (saver, serde) => {
    const { client, keys } = saver as unknown as { client: Redis; keys: { prefix: string } };
    return new IORedisSaver(client, { keyPrefix: keys.prefix, serde });
  },
};

/** Every backend available on this machine (under CI=true, all of them or the run fails). */
export const saverFactories: SaverFactory[] = [
  memoryFactory,
  sqliteFactory,
  ...((await serviceAvailable("postgres")) ? [postgresFactory] : []),
  ...((await serviceAvailable("redis")) ? [redisFactory] : []),
];

/**
 * For use inside a `describe`: returns a function that opens a fresh saver
 * from `factory`; every saver opened in a test is destroyed after it.
 */
export function saverPerTest(factory: SaverFactory): () => Promise<BaseCheckpointSaver> {
  const opened: BaseCheckpointSaver[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((saver) => factory.destroy(saver)));
  });
  return async () => {
    const saver = await factory.create();
    opened.push(saver);
    return saver;
  };
}
