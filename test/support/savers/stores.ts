/**
 * Stores that several processes share, as a deployment's replicas do: a SQLite file, a Postgres schema (read by the
 * official saver or FastPostgresSaver), a Redis key prefix. A store is named by environment variables, so a child
 * process opens the same one as its parent.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { Redis } from "ioredis";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { FastPostgresSaver } from "../../../src/postgres/index.js";
import { IORedisSaver } from "../../../src/redis/index.js";
import { deleteKeys, unique } from "./savers.js";
import { POSTGRES_URL, REDIS_URL } from "../servers/services.js";

export type StoreKind = "sqlite" | "postgres" | "fast-postgres" | "redis";

/** A shared store: its kind, the file or the server's URL, and the schema or key prefix (empty for a file). */
export interface StoreEnv {
  STORE: StoreKind;
  STORE_URL: string;
  STORE_NAMESPACE: string;
}

/** A saver on the store `env` names (the schema is set up already: see {@link createStore}). */
export function openStore({ STORE, STORE_URL, STORE_NAMESPACE }: StoreEnv): BaseCheckpointSaver {
  switch (STORE) {
    case "sqlite":
      return SqliteSaver.fromConnString(STORE_URL);
    case "postgres":
      return PostgresSaver.fromConnString(STORE_URL, { schema: STORE_NAMESPACE });
    case "fast-postgres":
      return FastPostgresSaver.fromConnString(STORE_URL, { schema: STORE_NAMESPACE });
    case "redis":
      return new IORedisSaver(new Redis(STORE_URL), { keyPrefix: STORE_NAMESPACE });
    default:
      throw new Error(`STORE must be sqlite, postgres, fast-postgres or redis, got ${String(STORE)}`);
  }
}

/** Closes a saver {@link openStore} opened. */
export async function closeStore(saver: BaseCheckpointSaver): Promise<void> {
  if (saver instanceof SqliteSaver) saver.db.close();
  else if (saver instanceof IORedisSaver) await (saver.client as Redis).quit();
  else await (saver as PostgresSaver).end();
}

/**
 * A new, empty store of `kind` (a Postgres schema set up once, as a deploy's migration step does, before any app
 * process starts), and how to remove it.
 */
export async function createStore(kind: StoreKind): Promise<{ env: StoreEnv; remove(): Promise<void> }> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "sanitizer-shared-"));
    const env: StoreEnv = { STORE: kind, STORE_URL: join(dir, "threads.sqlite"), STORE_NAMESPACE: "" };
    return { env, remove: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (kind === "redis") {
    const env: StoreEnv = { STORE: kind, STORE_URL: REDIS_URL, STORE_NAMESPACE: `sanitizer-shared-${unique()}` };
    const remove = async () => {
      const client = new Redis(REDIS_URL);
      await deleteKeys(client, env.STORE_NAMESPACE);
      await client.quit();
    };
    return { env, remove };
  }
  const env: StoreEnv = { STORE: kind, STORE_URL: POSTGRES_URL, STORE_NAMESPACE: `sanitizer_shared_${unique()}` };
  const saver = PostgresSaver.fromConnString(POSTGRES_URL, { schema: env.STORE_NAMESPACE });
  await saver.setup();
  await saver.end();
  const remove = async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${env.STORE_NAMESPACE}" CASCADE`);
    await client.end();
  };
  return { env, remove };
}
