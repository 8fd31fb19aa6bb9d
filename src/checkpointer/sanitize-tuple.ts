import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { deltaSnapshot, isDeltaSnapshot } from "../langgraph-features.js";
import type { Repair } from "../repair/patterns.js";
import type { RepairSettings } from "../repair/settings.js";
import { repairWith, type RepairResult, type TailMode } from "../repair/repair-messages.js";
import { repairList } from "./guarded-call.js";
import { answersIn, takeAnswers, type InputLists } from "./input-answers.js";
import { strandedResults, withoutUsedWrites } from "./stranded-results.js";
import { hasPendingInterrupt } from "./thread-state.js";

export interface ChannelRepairs {
  channel: string;
  repairs: Repair[];
}

export interface TupleRepairSettings {
  /** `undefined`: every channel whose value is a message list. */
  channels: readonly string[] | undefined;
  repair: RepairSettings;
}

/**
 * Repairs the message channels of a tuple (delta channels' snapshots too); the tuple itself when none needs it,
 * never mutated. A repaired tail takes stranded results from `pendingWrites` and `earlier`, and the input's answers.
 */
export function sanitizeTuple(
  tuple: CheckpointTuple,
  tail: TailMode,
  settings: TupleRepairSettings,
  earlier: readonly CheckpointTuple[] = [],
  input?: InputLists,
): { tuple: CheckpointTuple; repaired: ChannelRepairs[] } {
  const values = tuple.checkpoint.channel_values ?? {};
  let repairedValues: Record<string, unknown> | undefined;
  let pendingWrites = tuple.pendingWrites;
  const repaired: ChannelRepairs[] = [];
  const interrupted = tail === "preserve" && hasPendingInterrupt(pendingWrites);
  for (const channel of settings.channels ?? Object.keys(values)) {
    // A delta channel's periodic snapshot holds the whole list.
    const stored = values[channel];
    const value = isDeltaSnapshot(stored) ? stored.value : stored;
    // Skips the obvious non-lists cheaply.
    if (!Array.isArray(value) || value.length === 0) continue;
    const list = tail === "preserve" ? undefined : input?.get(channel);
    const answers = list === undefined ? [] : answersIn(list);
    // Answers alone continue the run, as a tool node's results do; followed by new input, they close a stopped turn.
    const channelTail = answers.length === 0 ? tail : answers.length === list!.length ? "request" : "repair";
    const stranded =
      channelTail === "repair" || answers.length > 0 ? strandedResults(pendingWrites, channel) : undefined;
    const recoveredResults = stranded && [...stranded.messages, ...strandedEarlier(tuple, earlier, channel)];
    const result =
      answers.length === 0
        ? repairList(value, settings.repair, channelTail, recoveredResults, interrupted)
        : withAnswers(value, settings.repair, channelTail, recoveredResults!, answers);
    if (list !== undefined && answers.length > 0) takeAnswers(list, answers);
    if (result.messages === value) continue;
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

/** A real result stranded in the pending writes wins; leftover answers are removed as duplicates or orphans. */
function withAnswers(
  messages: readonly unknown[],
  settings: RepairSettings,
  tail: TailMode,
  recovered: readonly unknown[],
  answers: readonly unknown[],
): RepairResult {
  const placed = repairWith(messages, settings, tail, [...recovered, ...answers]);
  const left = answers.filter((answer) => !placed.usedRecovered.includes(answer));
  if (left.length === 0) return placed;
  const rest = repairWith([...placed.messages, ...left], settings, tail);
  return {
    messages: rest.messages,
    repairs: [...placed.repairs, ...rest.repairs],
    usedRecovered: placed.usedRecovered,
  };
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
