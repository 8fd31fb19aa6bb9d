import type { BaseCheckpointSaver, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { resolvePruneOptions, type PruneOptions } from "./options.js";
import type { PruneReport } from "./report.js";
import { runPrune } from "./run.js";
import { RETENTION_STORE, type RetentionStore, type WithRetentionStore } from "./store.js";
import { postgresRetention, type PostgresPool } from "./stores/postgres.js";
import { sqliteRetention, type SqliteDatabase } from "./stores/sqlite.js";

/** The saver has no retention this package knows: its message names the saver and what to use instead. */
export class PruneNotSupportedError extends TypeError {
  override name = "PruneNotSupportedError";
  /** The saver's class name. */
  readonly saver: string;

  constructor(saver: string) {
    const memory = saver === "MemorySaver" ? " A MemorySaver's threads live in memory: deleteThread() frees one." : "";
    super(
      `prune cannot remove checkpoints from ${saver}: it works on IORedisSaver, FastPostgresSaver, PostgresSaver and ` +
        `SqliteSaver stores, alone or wrapped in a SanitizingCheckpointer.${memory}`,
    );
    this.saver = saver;
  }
}

const className = (saver: object) => (saver as { constructor?: { name?: string } }).constructor?.name ?? "this saver";

/** By the class names on its prototype chain: no driver is loaded to tell. */
function isA(saver: object, name: string): boolean {
  for (let proto = Object.getPrototypeOf(saver); proto; proto = Object.getPrototypeOf(proto))
    if ((proto as { constructor?: { name?: string } }).constructor?.name === name) return true;
  return false;
}

/** A `SanitizingCheckpointer`'s wrapped saver, by its `inner`. */
const unwrapped = (saver: object): object =>
  isA(saver, "SanitizingCheckpointer") ? unwrapped((saver as { inner: object }).inner) : saver;

function retentionStoreOf(saver: object): RetentionStore {
  const own = (saver as Partial<WithRetentionStore>)[RETENTION_STORE];
  if (typeof own === "function") return own.call(saver);
  const { pool, options, db, serde } = saver as {
    pool?: PostgresPool;
    options?: { schema?: unknown };
    db?: SqliteDatabase;
    serde: SerializerProtocol;
  };
  if (isA(saver, "PostgresSaver") && typeof pool?.connect === "function" && typeof options?.schema === "string")
    return postgresRetention(pool, options.schema);
  if (isA(saver, "SqliteSaver") && typeof db?.prepare === "function") return sqliteRetention(db, serde);
  throw new PruneNotSupportedError(className(saver));
}

/**
 * Removes old checkpoints, with their pending writes and the values no kept checkpoint refers to, from every thread
 * of the store `saver` writes to (or one, with `threadId`). Keeps the newest `keepLast` of each thread namespace and
 * those newer than `olderThan`, and whatever a read of a kept checkpoint needs: each namespace's newest, an
 * interrupt's and a stranded result's writes, a delta channel's writes back to its snapshot, subgraphs with the
 * parent checkpoint they ran under (docs/retention.md). Each thread changes in one transaction (one MULTI on Redis).
 *
 * @param saver - an `IORedisSaver`, `FastPostgresSaver`, `PostgresSaver` or `SqliteSaver`, or a
 *   `SanitizingCheckpointer` around one
 * @returns what was removed (with `dryRun`, what would be), in all and by thread
 * @throws InvalidOptionError for a bad option, before the store is touched; PruneNotSupportedError for another saver
 *
 * @example
 * ```ts
 * const report = await prune(checkpointer, { keepLast: 10, olderThan: "30d" });
 * console.log(`${report.removed.checkpoints} checkpoints, ${report.removed.bytes} bytes removed`);
 * ```
 */
export async function prune<V extends string | number>(
  saver: BaseCheckpointSaver<V>,
  options: PruneOptions,
): Promise<PruneReport> {
  const resolved = resolvePruneOptions(options);
  return runPrune(retentionStoreOf(unwrapped(saver)), resolved);
}

export type { PruneOptions, PruneReport };
