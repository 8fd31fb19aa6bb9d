// The saver a doctor worker reads through: the store's own, but `getTuple` of a thread's latest checkpoint answers from
// the batch the worker loaded last, so the SanitizingCheckpointer over it judges the thread exactly as over the store
// (same tuple); its other reads (input checkpoints' parents, delta channel histories, breakpoints) go to the store.
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { OpenStore, ThreadRef } from "./store.js";

const key = (threadId: unknown, checkpointNs: unknown) => JSON.stringify([threadId, checkpointNs ?? ""]);

export interface LatestView {
  saver: BaseCheckpointSaver;
  /** Reads the latest checkpoint of each of `refs` (the store's batch read, or one getTuple each, together). */
  load(refs: readonly ThreadRef[]): Promise<void>;
}

export function latestView(store: OpenStore): LatestView {
  let batch = new Map<string, CheckpointTuple | undefined>();
  // Everything but getTuple is the store's own, read through the prototype chain. The store's methods run with the
  // view as `this`, so the serializer the SanitizingCheckpointer may set for fast reads is the one they use.
  const saver = Object.create(store.saver) as BaseCheckpointSaver;
  const read = (config: RunnableConfig) => store.saver.getTuple.call(saver, config);
  saver.getTuple = (config: RunnableConfig) => {
    const { thread_id, checkpoint_ns, checkpoint_id } = config.configurable ?? {};
    const held = checkpoint_id ? undefined : key(thread_id, checkpoint_ns);
    return held !== undefined && batch.has(held) ? Promise.resolve(batch.get(held)) : read(config);
  };
  return {
    saver,
    async load(refs) {
      const tuples = store.latest
        ? await store.latest(refs)
        : await Promise.all(
            refs.map((r) => read({ configurable: { thread_id: r.threadId, checkpoint_ns: r.checkpointNs } })),
          );
      batch = new Map(refs.map((ref, i) => [key(ref.threadId, ref.checkpointNs), tuples[i]]));
    },
  };
}
