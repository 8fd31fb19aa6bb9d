/**
 * The saver a doctor worker reads through: the store's own, except that `getTuple` of a thread's latest checkpoint
 * answers from the batch the worker read last. The SanitizingCheckpointer over it judges the thread exactly as over
 * the store (same tuple); what else it reads (input checkpoints' parents, delta channel histories, breakpoints)
 * goes to the store.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { ThreadRef } from "./store.js";

const key = (threadId: unknown, checkpointNs: unknown) => JSON.stringify([threadId, checkpointNs ?? ""]);

export interface LatestView {
  saver: BaseCheckpointSaver;
  /** Replaces the batch: `tuples[i]` is the latest checkpoint of `refs[i]`. */
  hold(refs: readonly ThreadRef[], tuples: readonly (CheckpointTuple | undefined)[]): void;
}

export function latestView(store: BaseCheckpointSaver): LatestView {
  let batch = new Map<string, CheckpointTuple | undefined>();
  // Everything but getTuple is the store's own, read through the prototype chain.
  const saver = Object.create(store) as BaseCheckpointSaver;
  saver.getTuple = (config: RunnableConfig) => {
    const { thread_id, checkpoint_ns, checkpoint_id } = config.configurable ?? {};
    const held = checkpoint_id ? undefined : key(thread_id, checkpoint_ns);
    return held !== undefined && batch.has(held) ? Promise.resolve(batch.get(held)) : store.getTuple(config);
  };
  return {
    saver,
    hold(refs, tuples) {
      batch = new Map(refs.map((ref, i) => [key(ref.threadId, ref.checkpointNs), tuples[i]]));
    },
  };
}
