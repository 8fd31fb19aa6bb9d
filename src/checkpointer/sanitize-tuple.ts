import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { deltaSnapshot, isDeltaSnapshot } from "../langgraph-features.js";
import type { Repair } from "../repair/patterns.js";
import type { TailMode } from "../repair/repair-messages.js";
import type { RepairSettings } from "../repair/settings.js";
import { repairList } from "./guarded-call.js";
import { strandedResults, withoutUsedWrites } from "./stranded-results.js";
import { hasPendingInterrupt } from "./thread-state.js";

/** The repairs made to one channel of a tuple. */
export interface ChannelRepairs {
  channel: string;
  repairs: Repair[];
}

/** How {@link sanitizeTuple} repairs a tuple. */
export interface TupleRepairSettings {
  /** Channels to repair; `undefined` means every channel whose value is a message list. */
  channels: readonly string[] | undefined;
  repair: RepairSettings;
}

/**
 * Repairs the message channels of a tuple (lists, and the snapshots of delta
 * channels; the rest of a delta channel is repaired by `DeltaReads`). Returns the tuple itself when no
 * channel needs repair; otherwise a new tuple sharing everything unchanged
 * with the input, which is never mutated. When the tail is repaired, finished
 * tool results stranded in `pendingWrites` are moved into the history, and so are those stranded in
 * `earlier` (see {@link strandedEarlier}). When it is preserved at a pending `interrupt()`, it keeps the call the
 * interrupt may guard (see `repairList`).
 */
export function sanitizeTuple(
  tuple: CheckpointTuple,
  tail: TailMode,
  settings: TupleRepairSettings,
  earlier: readonly CheckpointTuple[] = [],
): { tuple: CheckpointTuple; repaired: ChannelRepairs[] } {
  const values = tuple.checkpoint.channel_values ?? {};
  let repairedValues: Record<string, unknown> | undefined;
  let pendingWrites = tuple.pendingWrites;
  const repaired: ChannelRepairs[] = [];
  const interrupted = tail === "preserve" && hasPendingInterrupt(pendingWrites);
  for (const channel of settings.channels ?? Object.keys(values)) {
    // A delta channel's periodic snapshot holds the whole list, and the graph reads it as such.
    const stored = values[channel];
    const value = isDeltaSnapshot(stored) ? stored.value : stored;
    // repairMessages returns anything that is not a message list unchanged; this skips the obvious cases cheaply.
    if (!Array.isArray(value) || value.length === 0) continue;
    const stranded = tail === "repair" ? strandedResults(pendingWrites, channel) : undefined;
    const recoveredResults = stranded && [...stranded.messages, ...strandedEarlier(tuple, earlier, channel)];
    const result = repairList(value, settings.repair, tail, recoveredResults, interrupted);
    if (result.repairs.length === 0) continue;
    repairedValues ??= { ...values };
    repairedValues[channel] = isDeltaSnapshot(stored) ? deltaSnapshot(result.messages) : result.messages;
    if (stranded && pendingWrites) pendingWrites = withoutUsedWrites(pendingWrites, stranded, result.usedRecovered);
    repaired.push({ channel, repairs: result.repairs });
  }
  if (repairedValues === undefined) return { tuple, repaired };
  return {
    tuple: {
      ...tuple,
      checkpoint: { ...tuple.checkpoint, channel_values: repairedValues },
      ...(pendingWrites !== undefined ? { pendingWrites } : {}),
    },
    repaired,
  };
}

/**
 * The results stranded in the pending writes of `earlier` (the tuple's ancestors, nearest first) for as long as
 * `channel` kept its version. A run cancelled right after its input checkpoint leaves a checkpoint whose list a
 * read repaired for it, with the results that read took from its parent's pending writes; a saver that stores a
 * channel only when its version changes (Postgres, Redis) kept the list as it was, and the results stay on the
 * parent.
 */
function strandedEarlier(tuple: CheckpointTuple, earlier: readonly CheckpointTuple[], channel: string): unknown[] {
  const version = tuple.checkpoint.channel_versions[channel];
  const found: unknown[] = [];
  for (const ancestor of earlier) {
    if (ancestor.checkpoint.channel_versions[channel] !== version) break;
    found.push(...strandedResults(ancestor.pendingWrites, channel).messages);
  }
  return found;
}
