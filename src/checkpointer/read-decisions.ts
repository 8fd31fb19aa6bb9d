import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointPendingWrite, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { TailMode } from "../repair/repair-messages.js";
import { hasPendingInterrupt } from "./thread-state.js";

/** What a `getTuple` or `list` read decided for a checkpoint it returned. */
export interface ReadDecision {
  tail: TailMode | "off";
  /** Whether the read's policy was `"auto"`. */
  auto: boolean;
  /** Whether a preserved tail is read at a pending `interrupt()`, so it keeps the call the interrupt may guard. */
  interrupted?: boolean;
  /** The tuple's pending writes, kept for a repaired tail: they may hold stranded results (pattern N). */
  pendingWrites?: readonly CheckpointPendingWrite[];
  /** The checkpoint's `metadata.source` and parent, to find the start of the run that wrote it. */
  source?: string;
  parentConfig?: RunnableConfig;
}

/** How many decisions are kept; a graph reads its delta history right after its `getTuple`. */
const CAPACITY = 512;

/**
 * The `configurable` key a returned tuple carries its read's token under. A symbol: LangGraph spreads the
 * tuple's config into the config it reads the delta history with, and nothing serializes it.
 */
const READ = Symbol("langgraph-checkpoint-sanitizer.read");

/**
 * What a returned config carries: an empty token standing for one read, so that nothing of the decision
 * (the tuple's pending writes) shows where the config is logged or compared.
 */
class ReadToken {}

/**
 * LangGraph marks every checkpoint of a thread that a graph with delta channels started. (A thread started
 * before its graph had them is unmarked, and its delta history is still read: its decisions come from the map.)
 */
const isMarkedDelta = (tuple: CheckpointTuple): boolean =>
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
    ...(tail === "preserve" && hasPendingInterrupt(tuple.pendingWrites) ? { interrupted: true } : {}),
  };
}

/**
 * The tail decisions of `getTuple` and `list` reads. A graph loads a delta
 * channel in two calls: `getTuple` (or `list`), then `getDeltaChannelHistory`
 * with the returned checkpoint's id, so the second call alone cannot tell a
 * read of the latest checkpoint from time travel.
 *
 * A tuple of a delta thread carries a token of its read in its config, which
 * the graph passes on, so other reads of the same checkpoint in between
 * (LangGraph reads the latest one to see whether an addressed checkpoint was
 * superseded) cannot change its decision. Every decision is also kept by
 * thread, namespace and checkpoint id, the newest {@link CAPACITY}, for an
 * unmarked checkpoint and for a caller that builds the history read's config
 * itself.
 * @internal
 */
export class ReadDecisions {
  private readonly decisions = new Map<string, ReadDecision>();
  private readonly carried = new WeakMap<ReadToken, { key: string; decision: ReadDecision }>();

  /**
   * Records the decision of a read of `tuple`, replacing any earlier one for the same checkpoint, and returns
   * `tuple` carrying it when the checkpoint is marked as a delta thread's and the read did not turn the
   * sanitizer off. Any other read returns `tuple` itself.
   */
  record(tuple: CheckpointTuple, decision: ReadDecision): CheckpointTuple {
    const configurable = tuple.config.configurable;
    const key = keyOf({ ...configurable, checkpoint_id: configurable?.checkpoint_id ?? tuple.checkpoint.id });
    if (key === undefined) return tuple;
    this.decisions.delete(key);
    this.decisions.set(key, decision);
    if (this.decisions.size > CAPACITY) this.decisions.delete(this.decisions.keys().next().value!);
    if (decision.tail === "off" || !isMarkedDelta(tuple)) return tuple;
    const token = Object.freeze(new ReadToken());
    this.carried.set(token, { key, decision });
    return { ...tuple, config: { ...tuple.config, configurable: { ...configurable, [READ]: token } } };
  }

  /** The decision of the read that returned the checkpoint `config` addresses, if carried or kept. */
  recall(config: RunnableConfig): ReadDecision | undefined {
    const configurable = config.configurable;
    const key = keyOf(configurable);
    if (key === undefined) return undefined;
    const token = configurable?.[READ as unknown as string];
    const carried = token instanceof ReadToken ? this.carried.get(token) : undefined;
    // The token must be this checkpoint's: a config built from another read's may carry a stale one.
    return carried?.key === key ? carried.decision : this.decisions.get(key);
  }
}
