import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointPendingWrite, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { TailKind } from "../repair/repair-messages.js";
import { isMarkedDelta } from "../langgraph-features.js";
import type { InputLists } from "./run-input.js";
import { hasPendingInterrupt, storedInput } from "./thread-state.js";

export interface ReadDecision {
  tail: TailKind | "off";
  auto: boolean;
  /** A preserved tail at a pending `interrupt()` keeps the call the interrupt may guard. */
  interrupted?: boolean;
  /** Kept for a repaired tail: they may hold stranded results (`stranded-tool-result`). */
  pendingWrites?: readonly CheckpointPendingWrite[];
  /** The lists of the run's input for delta channels, which the history read repairs with the channel (once). */
  input?: InputLists;
  /** To find the start of the run that wrote the checkpoint. */
  source?: string;
  parentConfig?: RunnableConfig;
  /** An input checkpoint's input, not yet applied. */
  storedInput?: unknown;
}

/** A graph reads its delta history right after its `getTuple`. */
const CAPACITY = 512;

/** A symbol: LangGraph spreads the tuple's config into its delta history read, and nothing serializes it. */
const READ = Symbol("langgraph-checkpoint-sanitizer.read");

/** Empty, so nothing of the decision shows where the config is logged or compared. */
class ReadToken {}

const keyOf = (configurable: Record<string, unknown> | undefined): string | undefined => {
  const threadId = configurable?.thread_id;
  const checkpointId = configurable?.checkpoint_id;
  if (threadId === undefined || checkpointId === undefined) return undefined;
  return `${String(threadId)}\u0000${String(configurable?.checkpoint_ns ?? "")}\u0000${String(checkpointId)}`;
};

export function decisionFor(
  tuple: CheckpointTuple,
  tail: TailKind | "off",
  auto: boolean,
  input?: InputLists,
): ReadDecision {
  return {
    tail,
    auto,
    source: tuple.metadata?.source,
    parentConfig: tuple.parentConfig,
    storedInput: storedInput(tuple.checkpoint),
    ...(tail === "stopped" ? { pendingWrites: tuple.pendingWrites } : {}),
    ...(input !== undefined && tail !== "resumable" && tail !== "off" ? { input } : {}),
    ...(tail === "resumable" && hasPendingInterrupt(tuple.pendingWrites) ? { interrupted: true } : {}),
  };
}

/**
 * `getDeltaChannelHistory` alone cannot tell the latest checkpoint from time travel, so the `getTuple` or `list` that
 * returned it leaves its decision in a token in the config, kept by checkpoint too (docs/delta-channels.md). @internal
 */
export class ReadDecisions {
  private readonly decisions = new Map<string, ReadDecision>();
  private readonly carried = new WeakMap<ReadToken, { key: string; decision: ReadDecision }>();

  /** A read that turned the sanitizer off, or of an unmarked checkpoint, returns `tuple` itself. */
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

  recall(config: RunnableConfig): ReadDecision | undefined {
    const configurable = config.configurable;
    const key = keyOf(configurable);
    if (key === undefined) return undefined;
    const token = configurable?.[READ as unknown as string];
    const carried = token instanceof ReadToken ? this.carried.get(token) : undefined;
    // A config built from another read's may carry a stale token.
    return carried?.key === key ? carried.decision : this.decisions.get(key);
  }
}
