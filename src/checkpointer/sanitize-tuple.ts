import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { deltaSnapshot, isDeltaSnapshot, isMarkedDelta } from "../langgraph-features.js";
import type { Repair } from "../repair/report/catalog.js";
import type { ResolvedRepairSettings } from "../repair/settings.js";
import type { TailKind } from "../repair/repair-messages.js";
import { repairList } from "./repair-list.js";
import { repairWithInput, rewriteList, type InputLists } from "./run-input.js";
import { strandedResults, withoutUsedWrites } from "./stranded-results.js";
import { hasPendingInterrupt } from "./thread-state.js";

export interface ChannelRepairs {
  channel: string;
  repairs: Repair[];
}

export interface TupleRepairSettings {
  /** `undefined`: every channel whose value is a message list. */
  channels: readonly string[] | undefined;
  repair: ResolvedRepairSettings;
}

/**
 * Repairs the message channels of a tuple (delta channels' snapshots too); the tuple itself when none needs it,
 * never mutated. A repaired tail takes stranded results from `pendingWrites` and `earlier`. A run's `input` lists are
 * repaired with the channel they append to, and rewritten in place (see `repairWithInput`).
 */
export function sanitizeTuple(
  tuple: CheckpointTuple,
  tail: TailKind,
  settings: TupleRepairSettings,
  earlier: readonly CheckpointTuple[] = [],
  input?: InputLists,
): { tuple: CheckpointTuple; repaired: ChannelRepairs[] } {
  const values = tuple.checkpoint.channel_values ?? {};
  let repairedValues: Record<string, unknown> | undefined;
  let pendingWrites = tuple.pendingWrites;
  const repaired: ChannelRepairs[] = [];
  const interrupted = tail === "resumable" && hasPendingInterrupt(pendingWrites);
  const lists = tail === "resumable" ? undefined : input;
  for (const channel of channelsOf(settings, values, lists)) {
    // A delta channel's periodic snapshot holds the whole list.
    const stored = values[channel];
    const value = isDeltaSnapshot(stored) ? stored.value : stored;
    const list = lists?.get(channel);
    // A delta channel without a snapshot holds none: its history read takes the input.
    if (value === undefined && list !== undefined && isMarkedDelta(tuple)) continue;
    const storedList = value === undefined ? [] : value;
    if (!Array.isArray(storedList) || (storedList.length === 0 && list === undefined)) continue;
    const stranded = tail === "stopped" || list !== undefined ? strandedResults(pendingWrites, channel) : undefined;
    const recoveredResults = stranded && [...stranded.messages, ...strandedEarlier(tuple, earlier, channel)];
    const withInput = list && repairWithInput(storedList, list, settings.repair, tail, recoveredResults);
    if (list !== undefined) lists!.delete(channel);
    const result = withInput?.result ?? repairList(storedList, settings.repair, tail, recoveredResults, interrupted);
    if (result.repairs.length === 0) continue;
    if (withInput) rewriteList(list!, withInput.input);
    const messages = withInput ? withInput.stored : result.messages;
    if (messages !== storedList) {
      repairedValues ??= { ...values };
      repairedValues[channel] = isDeltaSnapshot(stored) ? deltaSnapshot(messages as unknown[]) : messages;
    }
    if (stranded && pendingWrites) pendingWrites = withoutUsedWrites(pendingWrites, stranded, result.usedRecovered);
    repaired.push({ channel, repairs: result.repairs });
  }
  if (repairedValues === undefined && pendingWrites === tuple.pendingWrites) return { tuple, repaired };
  return {
    tuple: {
      ...tuple,
      checkpoint: { ...tuple.checkpoint, channel_values: repairedValues ?? values },
      ...(pendingWrites !== undefined ? { pendingWrites } : {}),
    },
    repaired,
  };
}

/** The channels to read: the option's, or every stored one and every list of the input. */
function channelsOf(
  settings: TupleRepairSettings,
  values: Record<string, unknown>,
  lists: InputLists | undefined,
): Iterable<string> {
  if (settings.channels) return settings.channels;
  if (lists === undefined) return Object.keys(values);
  return new Set([...Object.keys(values), ...lists.keys()]);
}

/** Repairs the lists of a run's input that nothing stored precedes (a new thread, a graph without a checkpointer). */
export function sanitizeInput(lists: InputLists, settings: TupleRepairSettings): ChannelRepairs[] {
  const repaired: ChannelRepairs[] = [];
  for (const channel of settings.channels ?? lists.keys()) {
    const list = lists.get(channel);
    const withInput = list && repairWithInput([], list, settings.repair, "finished");
    if (!withInput || withInput.result.repairs.length === 0) continue;
    rewriteList(list!, withInput.input);
    repaired.push({ channel, repairs: withInput.result.repairs });
  }
  return repaired;
}

/**
 * A run cancelled right after its input checkpoint leaves the results on the parent when the saver stores a channel
 * only when its version changes (Postgres, Redis); they count while `channel` keeps its version.
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
