import type { RunnableConfig } from "@langchain/core/runnables";
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointListOptions,
  CheckpointMetadata,
  CheckpointTuple,
  PendingWrite,
  SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { FastJsonPlusSerializer } from "../serde/fast-jsonplus-serializer.js";
import { explainPostgresOutage } from "./outage-error.js";
import { PostgresReadPath, type ReadPathSaver } from "./read-path.js";
import { assertOption } from "../repair/validate.js";

/** Options of {@link FastPostgresSaver}, the same as `PostgresSaver`'s. */
export interface FastPostgresSaverOptions {
  /**
   * The Postgres schema of the tables. Must not contain `"`.
   * @default "public"
   */
  schema: string;
}

/**
 * How long {@link FastPostgresSaver.fromConnString}'s pool waits for a connection: a call made while Postgres is
 * down fails within this (node-postgres waits for ever by default).
 * @internal
 */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * Makes the pool's connections survive their server going away (a restart, a failover, PgBouncer closing them).
 * node-postgres reports that as an `error` event on the client, and on the pool when the client was idle; an
 * `error` event nobody listens to ends the process. The official saver's `put`, `putWrites` and `deleteThread`
 * borrow clients without listening, so every connection gets a listener: the call using it fails with the error,
 * the pool drops the client, and the next call connects again.
 */
function listenForServerErrors(pool: pg.Pool): void {
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
}

function rethrow(error: unknown): never {
  throw explainPostgresOutage(error);
}

/**
 * `PostgresSaver` with a faster read path: a drop-in replacement over the
 * same tables, migrations and writes, constructed the same way, whose
 * `getTuple` and `list` return the same tuples. Each read is one statement, as
 * in the official saver, but channel blobs and pending writes come back as
 * rows, JSON values as text, instead of `bytea[][]` arrays, which
 * node-postgres parses slowly, and each blob is looked up by its primary key
 * however long the thread's history. Values are read with {@link FastJsonPlusSerializer} unless
 * another serde is given. Writes, `setup()`, `deleteThread()` and `end()` are
 * the official saver's own, so switching back is changing the class name.
 *
 * ```ts
 * import { FastPostgresSaver } from "langgraph-checkpoint-sanitizer/postgres";
 *
 * const saver = FastPostgresSaver.fromConnString(url, { schema: "public" });
 * await saver.setup();
 * const checkpointer = new SanitizingCheckpointer(saver);
 * ```
 *
 * Checkpoints older than LangGraph's checkpoint format 4 whose pending sends
 * must be migrated on read are handed to the official read path, one query
 * each.
 */
export class FastPostgresSaver extends PostgresSaver {
  // Not `#private`: apps and tests wrap savers with Object.create or proxies, which `#` fields reject.
  private readonly readPath: PostgresReadPath;

  constructor(pool: pg.Pool, serde?: SerializerProtocol, options?: Partial<FastPostgresSaverOptions>) {
    const schema = options?.schema ?? "public";
    // The read path writes it inside double quotes (read-sql.ts).
    const valid = typeof schema === "string" && !schema.includes('"');
    assertOption("schema", schema, valid, "must be a schema name without double quotes");
    super(pool, serde ?? new FastJsonPlusSerializer(), { ...options, schema });
    listenForServerErrors(pool);
    // Its serde and `_searchWhere`/`_loadMetadata` are this saver's (protected, hence the cast); legacy checkpoints
    // go to the official read path.
    const saver = this as unknown as ReadPathSaver;
    this.readPath = new PostgresReadPath(pool, schema, saver, (config) => super.getTuple(config));
  }

  /**
   * A saver on a new pool for `connString`, like `PostgresSaver.fromConnString`, that gives up on a connection
   * Postgres (or PgBouncer) neither accepts nor refuses after {@link CONNECT_TIMEOUT_MS}. Call `setup()` once before use.
   */
  static override fromConnString(connString: string, options?: Partial<FastPostgresSaverOptions>): FastPostgresSaver {
    const pool = new pg.Pool({ connectionString: connString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    return new FastPostgresSaver(pool, undefined, options);
  }

  // Each call in its own words when Postgres is away: what is down and what to set (outage-error.ts).
  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.readPath.getTuple(config).catch(rethrow);
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    try {
      yield* this.readPath.list(config, options);
    } catch (error) {
      rethrow(error);
    }
  }

  override put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    return super.put(config, checkpoint, metadata, newVersions).catch(rethrow);
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    return super.putWrites(config, writes, taskId).catch(rethrow);
  }

  override deleteThread(threadId: string): Promise<void> {
    return super.deleteThread(threadId).catch(rethrow);
  }
}
