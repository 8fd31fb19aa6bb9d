import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointListOptions, CheckpointTuple, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { FastJsonPlusSerializer } from "../serde/fast-jsonplus-serializer.js";
import { explainPostgresOutage } from "./outage-error.js";
import { PostgresReadPath, type ReadPathSaver } from "./read-path.js";
import { assertOption } from "../options/assert-option.js";
import { prune, type PruneOptions, type PruneReport } from "../retention/prune.js";
import { explainErrorsOf } from "../explain-errors.js";

/** Options of {@link FastPostgresSaver}, as `PostgresSaver`'s. */
export interface FastPostgresSaverOptions {
  /** The Postgres schema of the tables; no `"`. @default "public" */
  schema: string;
}

/** node-postgres waits for ever by default; a call made while Postgres is down fails within this. @internal */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * An unheard `error` event (a restart, failover or PgBouncer closing the connection) ends the process, and the
 * official saver borrows clients without listening: every connection gets a listener (docs/postgres.md).
 */
function listenForServerErrors(pool: pg.Pool): void {
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
}

/**
 * `PostgresSaver` with a faster read path over the same tables: `getTuple` and `list` return the same tuples from one
 * statement with rows instead of `bytea[][]` arrays (docs/postgres.md). Writes, `setup()`, `deleteThread()` and
 * `end()` are the official saver's, so switching back is changing the class name.
 *
 * ```ts
 * import { FastPostgresSaver } from "langgraph-checkpoint-sanitizer/postgres";
 *
 * const saver = FastPostgresSaver.fromConnString(url, { schema: "public" });
 * await saver.setup();
 * const checkpointer = new SanitizingCheckpointer(saver);
 * ```
 *
 * Checkpoints before format 4 with pending sends to migrate go to the official read path.
 */
export class FastPostgresSaver extends PostgresSaver {
  // Not `#private`: apps and tests wrap savers with Object.create or proxies, which `#` fields reject.
  private readonly readPath: PostgresReadPath;

  constructor(pool: pg.Pool, serde?: SerializerProtocol, options?: Partial<FastPostgresSaverOptions>) {
    const schema = options?.schema ?? "public";
    // Written inside double quotes (read-sql.ts).
    const valid = typeof schema === "string" && !schema.includes('"');
    assertOption("schema", schema, valid, "must be a schema name without double quotes");
    super(pool, serde ?? new FastJsonPlusSerializer(), { ...options, schema });
    listenForServerErrors(pool);
    // `_searchWhere` and `_loadMetadata` are protected, hence the cast.
    const saver = this as unknown as ReadPathSaver;
    this.readPath = new PostgresReadPath(pool, schema, saver, (config) => super.getTuple(config));
  }

  /** As `PostgresSaver.fromConnString`, giving up on a connection after {@link CONNECT_TIMEOUT_MS}. */
  static override fromConnString(connString: string, options?: Partial<FastPostgresSaverOptions>): FastPostgresSaver {
    const pool = new pg.Pool({ connectionString: connString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    return new FastPostgresSaver(pool, undefined, options);
  }

  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.readPath.getTuple(config);
  }

  override list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.readPath.list(config, options);
  }

  /**
   * Removes old checkpoints, keeping the newest `keepLast` of each thread namespace, those newer than `olderThan`, and
   * whatever a read of a kept one needs; a batch of threads in one transaction (docs/retention.md).
   */
  prune(options: PruneOptions): Promise<PruneReport> {
    return prune(this, options);
  }
}

explainErrorsOf(FastPostgresSaver, explainPostgresOutage);
