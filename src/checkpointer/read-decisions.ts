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

/**
 * The `configurable` key a returned tuple carries its read's decision under. A symbol: LangGraph spreads the
 * tuple's config into the config it reads the delta history with, and nothing serializes it.
 */
const DECISION = Symbol("langgraph-checkpoint-sanitizer.readDecision");

interface CarriedDecision {
  checkpointId: string;
  decision: ReadDecision;
}

/** LangGraph marks the checkpoints of a graph with delta channels; only those have a delta history to read. */
const hasDeltaChannels = (tuple: CheckpointTuple): boolean =>
  (tuple.metadata as Record<string, unknown> | undefined)?.delta_writes_versioned === true;

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
 * The tail decisions of `getTuple` and `list` reads. A graph loads a delta
 * channel in two calls: `getTuple` (or `list`), then `getDeltaChannelHistory`
 * with the returned checkpoint's id, so the second call alone cannot tell a
 * read of the latest checkpoint from time travel.
 *
 * A tuple of a graph with delta channels carries its decision in its config,
 * which the graph passes on: other reads of the same checkpoint in between
 * (LangGraph reads the latest one to see whether an addressed checkpoint was
 * superseded) cannot change it. Every decision is also kept by thread,
 * namespace and checkpoint id, the newest {@link CAPACITY}, for a caller that
 * builds the history read's config itself.
 * @internal
 */
export class ReadDecisions {
  private readonly decisions = new Map<string, ReadDecision>();

  /**
   * Records the decision of a read of `tuple`, replacing any earlier one for the same checkpoint, and returns
   * `tuple` carrying it when its graph has delta channels (a clean read of any other returns `tuple` itself).
   */
  record(tuple: CheckpointTuple, decision: ReadDecision): CheckpointTuple {
    const configurable = tuple.config.configurable;
    const checkpointId = String(configurable?.checkpoint_id ?? tuple.checkpoint.id);
    const key = keyOf({ ...configurable, checkpoint_id: checkpointId });
    if (key !== undefined) {
      this.decisions.delete(key);
      this.decisions.set(key, decision);
      if (this.decisions.size > CAPACITY) this.decisions.delete(this.decisions.keys().next().value!);
    }
    if (!hasDeltaChannels(tuple)) return tuple;
    const carried: CarriedDecision = { checkpointId, decision };
    return { ...tuple, config: { ...tuple.config, configurable: { ...configurable, [DECISION]: carried } } };
  }

  /** The decision of the read that returned the checkpoint `config` addresses, if carried or kept. */
  recall(config: RunnableConfig): ReadDecision | undefined {
    const configurable = config.configurable;
    const carried = configurable?.[DECISION as unknown as string] as CarriedDecision | undefined;
    if (carried !== undefined && carried.checkpointId === String(configurable?.checkpoint_id)) return carried.decision;
    const key = keyOf(configurable);
    return key === undefined ? undefined : this.decisions.get(key);
  }
}
