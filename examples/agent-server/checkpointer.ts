/**
 * The example's checkpointer, chosen by environment variables:
 *
 *   CHECKPOINTER=sqlite (default)  SQLITE_PATH, default ./agent-server.sqlite
 *   CHECKPOINTER=postgres          POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/postgres;
 *                                  POSTGRES_SCHEMA, default public
 *   CHECKPOINTER=redis             REDIS_URL, default redis://127.0.0.1:6379; REDIS_PREFIX, default agent-server
 *
 * Each reads with FastJsonPlusSerializer. The saver is the server's own, as is; main.ts protects the graph
 * with `sanitizeGraph`, which reads whatever saver the server assigns through a SanitizingCheckpointer.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import pg from "pg";
import { redact } from "../../src/redact.js";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { FastJsonPlusSerializer } from "../../src/index.js";
import { IORedisSaver } from "../../src/redis/index.js";

export const BACKENDS = ["sqlite", "postgres", "redis"] as const;
export type Backend = (typeof BACKENDS)[number];

export interface OpenCheckpointer {
  backend: Backend;
  /** Where the threads are stored, for the startup line. */
  location: string;
  checkpointer: BaseCheckpointSaver;
  close(): Promise<void>;
}

export async function openCheckpointer(env: NodeJS.ProcessEnv = process.env): Promise<OpenCheckpointer> {
  const backend = (env.CHECKPOINTER ?? "sqlite") as Backend;
  const serde = new FastJsonPlusSerializer();
  switch (backend) {
    case "sqlite": {
      const location = env.SQLITE_PATH ?? "agent-server.sqlite";
      const db = new Database(location);
      return {
        backend,
        location,
        checkpointer: new SqliteSaver(db, serde),
        close: async () => void db.close(),
      };
    }
    case "postgres": {
      const location = env.POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
      const pool = new pg.Pool({ connectionString: location });
      const saver = new PostgresSaver(pool, serde, { schema: env.POSTGRES_SCHEMA ?? "public" });
      await saver.setup();
      return {
        backend,
        location: redact(location),
        checkpointer: saver,
        close: () => pool.end(),
      };
    }
    case "redis": {
      const location = env.REDIS_URL ?? "redis://127.0.0.1:6379";
      const saver = new IORedisSaver(location, { keyPrefix: env.REDIS_PREFIX ?? "agent-server" });
      return {
        backend,
        location: redact(location),
        checkpointer: saver,
        close: () => saver.close(),
      };
    }
    default:
      throw new Error(`CHECKPOINTER must be one of ${BACKENDS.join(", ")}, got ${JSON.stringify(backend)}.`);
  }
}
