/**
 * What the installed LangGraph.js packages provide beyond the 1.0 line. The package supports every 1.x of
 * `@langchain/langgraph`, `@langchain/langgraph-checkpoint` and `@langchain/core`, so anything a later
 * minor added is looked up here, never imported by name: an ES module that names a missing export fails
 * to load at all.
 *
 * | feature | since |
 * |---|---|
 * | delta snapshots and `getDeltaChannelHistory` | `@langchain/langgraph-checkpoint` 1.1 |
 * | `writesSortKey` (the order pending writes are applied in) | `@langchain/langgraph-checkpoint` 1.2.1 |
 * | `JsonPlusSerializer` exported by name | `@langchain/langgraph-checkpoint` 1.2.2 |
 * | `DeltaChannel`, `messagesDeltaReducer` (`MessagesDeltaValue`) | `@langchain/langgraph` 1.4 |
 */
import * as checkpoint from "@langchain/langgraph-checkpoint";
import type { DeltaSnapshot, JsonPlusSerializer as StockSerializer } from "@langchain/langgraph-checkpoint";

const optional = checkpoint as Partial<typeof checkpoint>;

/** Whether `value` is a delta channel's stored snapshot. Before checkpoint 1.1, nothing stored is one. */
export const isDeltaSnapshot = (value: unknown): value is DeltaSnapshot => optional.isDeltaSnapshot?.(value) ?? false;

/** A delta channel's snapshot holding `messages` (only ever built where delta channels exist). */
export function deltaSnapshot(messages: unknown[]): DeltaSnapshot {
  return new optional.DeltaSnapshot!(messages);
}

/** The stock serializer: exported by name since checkpoint 1.2.2, and `MemorySaver`'s own serde in every 1.x. */
export const JsonPlusSerializer: typeof StockSerializer =
  optional.JsonPlusSerializer ?? (new checkpoint.MemorySaver().serde.constructor as typeof StockSerializer);

/** Where a pending write stands in LangGraph's order of applying them. */
export interface WritePosition {
  taskPath: string;
  taskId: string;
  idx: number;
}

/**
 * Sorts pending writes in the order LangGraph applies them (`writesSortKey`, checkpoint 1.2.1). Older lines
 * define no order: their savers return writes as stored, and so does this.
 */
export function sortWrites<T>(writes: T[], position: (write: T) => WritePosition): T[] {
  const { writesSortKey, compareWritesSortKeys } = optional;
  if (writesSortKey === undefined || compareWritesSortKeys === undefined) return writes;
  const key = (write: T) => {
    const { taskPath, taskId, idx } = position(write);
    return writesSortKey(taskPath, taskId, idx);
  };
  return writes.sort((a, b) => compareWritesSortKeys(key(a), key(b)));
}

/** `DeltaChannel` and the reducer of `MessagesDeltaValue`, from `@langchain/langgraph` 1.4. */
export interface DeltaChannelClasses {
  DeltaChannel: typeof import("@langchain/langgraph").DeltaChannel;
  messagesDeltaReducer: typeof import("@langchain/langgraph").messagesDeltaReducer;
}

let deltaClasses: Promise<DeltaChannelClasses> | undefined;

/**
 * LangGraph's delta channel, to rebuild a delta history exactly as the graph will. Loaded on the first delta
 * history read: only LangGraph 1.4 and later read one, and the main entry loads without `@langchain/langgraph`.
 */
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
