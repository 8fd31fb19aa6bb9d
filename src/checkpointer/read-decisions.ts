import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointPendingWrite, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { TailMode } from "../repair/repair-messages.js";

/** What a `getTuple` decided for the checkpoint it returned. */
export interface ReadDecision {
  tail: TailMode | "off";
  /** The tuple's pending writes, kept for a repaired tail: they may hold stranded results (pattern N). */
  pendingWrites?: readonly CheckpointPendingWrite[];
}

/** How many decisions are kept; a graph reads its delta history right after its `getTuple`. */
const CAPACITY = 512;

const keyOf = (configurable: Record<string, unknown> | undefined): string | undefined => {
  const threadId = configurable?.thread_id;
  const checkpointId = configurable?.checkpoint_id;
  if (threadId === undefined || checkpointId === undefined) return undefined;
  return `${String(threadId)}\u0000${String(configurable?.checkpoint_ns ?? "")}\u0000${String(checkpointId)}`;
};

/**
 * The tail decisions of recent `getTuple` reads, by thread, namespace and
 * checkpoint id. A graph loads a delta channel in two calls: `getTuple`, then
 * `getDeltaChannelHistory` with the returned checkpoint's id, so the second
 * call alone cannot tell a read of the latest checkpoint from time travel.
 * Only decisions other than `"preserve"` (what a checkpoint addressed by id
 * gets anyway) are kept, and only the newest {@link CAPACITY} of them.
 * @internal
 */
export class ReadDecisions {
  private readonly decisions = new Map<string, ReadDecision>();

  /** Records what `getTuple` decided for `tuple`, replacing any earlier decision for the same checkpoint. */
  record(tuple: CheckpointTuple, tail: TailMode | "off"): void {
    const key = keyOf({ ...tuple.config.configurable, checkpoint_id: tuple.config.configurable?.checkpoint_id ?? tuple.checkpoint.id });
    if (key === undefined) return;
    this.decisions.delete(key);
    if (tail === "preserve") return;
    this.decisions.set(key, tail === "repair" ? { tail, pendingWrites: tuple.pendingWrites } : { tail });
    if (this.decisions.size > CAPACITY) this.decisions.delete(this.decisions.keys().next().value!);
  }

  /** The decision of the last `getTuple` that returned the checkpoint `config` addresses, if kept. */
  recall(config: RunnableConfig): ReadDecision | undefined {
    const key = keyOf(config.configurable);
    return key === undefined ? undefined : this.decisions.get(key);
  }
}
