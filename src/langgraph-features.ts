// Anything added after the 1.0 line is looked up here, never imported by name: an ES module naming a missing export
// fails to load at all (docs/compatibility.md).
import * as checkpoint from "@langchain/langgraph-checkpoint";
import type {
  CheckpointTuple,
  DeltaSnapshot,
  JsonPlusSerializer as StockSerializer,
} from "@langchain/langgraph-checkpoint";

const optional = checkpoint as Partial<typeof checkpoint>;

/** Before checkpoint 1.1, nothing stored is one. */
export const isDeltaSnapshot = (value: unknown): value is DeltaSnapshot => optional.isDeltaSnapshot?.(value) ?? false;

/** LangGraph marks every checkpoint of a thread a graph with delta channels started. */
export const isMarkedDelta = (tuple: CheckpointTuple): boolean =>
  (tuple.metadata as Record<string, unknown> | undefined)?.delta_writes_versioned === true;

/** Only ever built where delta channels exist. */
export function deltaSnapshot(messages: unknown[]): DeltaSnapshot {
  return new optional.DeltaSnapshot!(messages);
}

/** Exported by name since checkpoint 1.2.2, and `MemorySaver`'s own serde in every 1.x. */
export const JsonPlusSerializer: typeof StockSerializer =
  optional.JsonPlusSerializer ?? (new checkpoint.MemorySaver().serde.constructor as typeof StockSerializer);

export interface WritePosition {
  taskPath: string;
  taskId: string;
  idx: number;
}

/** `writesSortKey`, checkpoint 1.2.1; older lines return writes as stored, and so does this. */
export function sortWrites<T>(writes: T[], position: (write: T) => WritePosition): T[] {
  const { writesSortKey, compareWritesSortKeys } = optional;
  if (writesSortKey === undefined || compareWritesSortKeys === undefined) return writes;
  const key = (write: T) => {
    const { taskPath, taskId, idx } = position(write);
    return writesSortKey(taskPath, taskId, idx);
  };
  return writes.sort((a, b) => compareWritesSortKeys(key(a), key(b)));
}

/** From `@langchain/langgraph` 1.4. */
export interface DeltaChannelClasses {
  DeltaChannel: typeof import("@langchain/langgraph").DeltaChannel;
  messagesDeltaReducer: typeof import("@langchain/langgraph").messagesDeltaReducer;
}

let deltaClasses: Promise<DeltaChannelClasses> | undefined;

/** Loaded on the first delta history read (1.4+ only), so the main entry loads without `@langchain/langgraph`. */
export function loadDeltaChannel(): Promise<DeltaChannelClasses> {
  deltaClasses ??= import("@langchain/langgraph").then((langgraph) => {
    const { DeltaChannel, messagesDeltaReducer } = langgraph as Partial<typeof langgraph>;
    if (DeltaChannel === undefined || messagesDeltaReducer === undefined) {
      throw new Error(
        "Reading a delta channel's history needs @langchain/langgraph 1.4 or newer (DeltaChannel); " +
          "upgrade @langchain/langgraph, or read the thread through the graph that wrote it.",
      );
    }
    return { DeltaChannel, messagesDeltaReducer };
  });
  return deltaClasses;
}
