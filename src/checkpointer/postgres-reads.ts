/**
 * The drop-in's fast reads for the official `PostgresSaver`: its `getTuple` and `list` return channel blobs and
 * writes as `bytea[][]` arrays, which node-postgres parses slowly, so over such a saver the wrapper reads through
 * FastPostgresSaver's read path instead (same tables, same tuples, one text-format statement). The saver itself is
 * left as it is: an unwrapped graph sharing it reads through its own methods.
 *
 * How the saver is recognised: `pg` and `@langchain/langgraph-checkpoint-postgres` are optional peers, so the
 * main entry must not import them. A saver whose class is named `PostgresSaver` (a cheap check that keeps every
 * other app from loading the package) has the package imported on the wrapper's first read, and is read fast only
 * if its prototype is that package's `PostgresSaver.prototype` itself: not a subclass (which may read or store
 * differently), not an app's own class of that name, not a copy from another install of the package, with no
 * `getTuple` or `list` of its own set on the instance. A name and a few fields alone would be enough to match
 * the wrong class; identity costs one import, once per process. Anything else (the package missing, another
 * copy, a serde of the app's own) keeps the saver's own reads.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, CheckpointListOptions, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { FastJsonPlusSerializer } from "../serde/fast-jsonplus-serializer.js";
import { PostgresReadPath, type ReadPathSaver, type ReadPool } from "../postgres/read-path.js";

/** The reads a wrapper makes of the saver it wraps. @internal */
export interface SaverReads {
  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined>;
  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple>;
}

type PostgresModule = typeof import("@langchain/langgraph-checkpoint-postgres");

let loading: Promise<PostgresModule | undefined> | undefined;

/** The installed `@langchain/langgraph-checkpoint-postgres`, or `undefined`; loaded once per process. */
function loadPostgresSaver(): Promise<PostgresModule | undefined> {
  loading ??= import("@langchain/langgraph-checkpoint-postgres").then(
    (module) => module,
    () => undefined,
  );
  return loading;
}

const READ_METHODS = ["getTuple", "list", "_searchWhere", "_loadMetadata"] as const;

/** Whether `saver` may be an official `PostgresSaver`, told without loading the package. @internal */
export function mayBePostgresSaver(saver: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(saver);
  return (
    typeof prototype === "object" &&
    prototype !== null &&
    (prototype as { constructor?: { name?: unknown } }).constructor?.name === "PostgresSaver"
  );
}

/** The fast read path over `saver` when it is the official `PostgresSaver` itself, else `undefined`. */
function readPathOver<V extends string | number>(
  saver: BaseCheckpointSaver<V>,
  module: PostgresModule | undefined,
): SaverReads | undefined {
  if (module === undefined || Object.getPrototypeOf(saver) !== module.PostgresSaver.prototype) return undefined;
  if (READ_METHODS.some((method) => Object.hasOwn(saver, method))) return undefined;
  // The serde the fast path hands JSON as text to: ours (what the drop-in gave a stock saver), not the app's own.
  if (!(saver.serde instanceof FastJsonPlusSerializer)) return undefined;
  const { pool, options } = saver as unknown as { pool?: Partial<ReadPool>; options?: { schema?: unknown } };
  const schema = options?.schema;
  if (typeof pool?.query !== "function" || typeof schema !== "string" || schema.includes('"')) return undefined;
  const getTuple = module.PostgresSaver.prototype.getTuple;
  return new PostgresReadPath(pool as ReadPool, schema, saver as unknown as ReadPathSaver, (config) =>
    getTuple.call(saver, config),
  );
}

/**
 * The reads to make of `saver`, a {@link mayBePostgresSaver}: FastPostgresSaver's read path when it is the official
 * `PostgresSaver` itself, else the saver's own.
 * @internal
 */
export async function postgresReads<V extends string | number>(saver: BaseCheckpointSaver<V>): Promise<SaverReads> {
  return readPathOver(saver, await loadPostgresSaver()) ?? saver;
}
