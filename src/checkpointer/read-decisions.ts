import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointPendingWrite, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { TailMode } from "../repair/repair-messages.js";

/** What a `getTuple` or `list` read decided for a checkpoint it returned. */
export interface ReadDecision {
  tail: TailMode | "off";
  /** Whether the read's policy was `"auto"`. */
  auto: boolean;
  /** The tuple's pending writes, kept for a repaired tail: they may hold stranded results (pattern N). */
  pendingWrites?: readonly CheckpointPendingWrite[];
  /** The checkpoint's `metadata.source` and parent, to find the start of the run that wrote it. */
  source?: string;
  parentConfig?: RunnableConfig;
}

/** How many decisions are kept; a graph reads its delta history right after its `getTuple`. */
const CAPACITY = 512;

const keyOf = (configurable: Record<string, unknown> | undefined): string | undefined => {
  const threadId = configurable?.thread_id;
  const checkpointId = configurable?.checkpoint_id;
  if (threadId === undefined || checkpointId === undefined) return undefined;
  return `${String(threadId)}\u0000${String(configurable?.checkpoint_ns ?? "")}\u0000${String(checkpointId)}`;
};

/** The decision a read of `tuple` implies for its delta channels. */
export function decisionFor(tuple: CheckpointTuple, tail: TailMode | "off", auto: boolean): ReadDecision {
  return {
    tail,
    auto,
    source: tuple.metadata?.source,
    parentConfig: tuple.parentConfig,
    ...(tail === "repair" ? { pendingWrites: tuple.pendingWrites } : {}),
  };
}

/**
 * The tail decisions of recent `getTuple` and `list` reads, by thread,
 * namespace and checkpoint id. A graph loads a delta channel in two calls:
 * `getTuple` (or `list`), then `getDeltaChannelHistory` with the returned
 * checkpoint's id, so the second call alone cannot tell a read of the latest
 * checkpoint from time travel. The newest {@link CAPACITY} are kept.
 * @internal
 */
export class ReadDecisions {
  private readonly decisions = new Map<string, ReadDecision>();

  /** Records the decision of a read of `tuple`, replacing any earlier one for the same checkpoint. */
  record(tuple: CheckpointTuple, decision: ReadDecision): void {
    const configurable = tuple.config.configurable;
    const key = keyOf({ ...configurable, checkpoint_id: configurable?.checkpoint_id ?? tuple.checkpoint.id });
    if (key === undefined) return;
    this.decisions.delete(key);
    this.decisions.set(key, decision);
    if (this.decisions.size > CAPACITY) this.decisions.delete(this.decisions.keys().next().value!);
  }

  /** The decision of the last read that returned the checkpoint `config` addresses, if kept. */
  recall(config: RunnableConfig): ReadDecision | undefined {
    const key = keyOf(config.configurable);
    return key === undefined ? undefined : this.decisions.get(key);
  }
}
