// Over the official `PostgresSaver` itself (by prototype: not a subclass or a copy from another install), reads go
// through FastPostgresSaver's read path, the package imported on the first read only (docs/serializer.md).
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, CheckpointListOptions, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { FastJsonPlusSerializer } from "../serde/fast-jsonplus-serializer.js";
import { PostgresReadPath, type ReadPathSaver, type ReadPool } from "../postgres/read-path.js";

/** @internal */
export interface SaverReads {
  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined>;
  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple>;
}

type PostgresModule = typeof import("@langchain/langgraph-checkpoint-postgres");

let loading: Promise<PostgresModule | undefined> | undefined;

/** Loaded once per process. */
function loadPostgresSaver(): Promise<PostgresModule | undefined> {
  loading ??= import("@langchain/langgraph-checkpoint-postgres").then(
    (module) => module,
    () => undefined,
  );
  return loading;
}

const READ_METHODS = ["getTuple", "list", "_searchWhere", "_loadMetadata"] as const;

/** Without loading the package. @internal */
export function mayBePostgresSaver(saver: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(saver);
  return (
    typeof prototype === "object" &&
    prototype !== null &&
    (prototype as { constructor?: { name?: unknown } }).constructor?.name === "PostgresSaver"
  );
}

function readPathOver<V extends string | number>(
  saver: BaseCheckpointSaver<V>,
  module: PostgresModule | undefined,
): SaverReads | undefined {
  if (module === undefined || Object.getPrototypeOf(saver) !== module.PostgresSaver.prototype) return undefined;
  if (READ_METHODS.some((method) => Object.hasOwn(saver, method))) return undefined;
  // The fast path hands JSON as text to our serde, not an app's own.
  if (!(saver.serde instanceof FastJsonPlusSerializer)) return undefined;
  const { pool, options } = saver as unknown as { pool?: Partial<ReadPool>; options?: { schema?: unknown } };
  const schema = options?.schema;
  if (typeof pool?.query !== "function" || typeof schema !== "string" || schema.includes('"')) return undefined;
  const getTuple = module.PostgresSaver.prototype.getTuple;
  return new PostgresReadPath(pool as ReadPool, schema, saver as unknown as ReadPathSaver, (config) =>
    getTuple.call(saver, config),
  );
}

/** @internal */
export async function postgresReads<V extends string | number>(saver: BaseCheckpointSaver<V>): Promise<SaverReads> {
  return readPathOver(saver, await loadPostgresSaver()) ?? saver;
}
