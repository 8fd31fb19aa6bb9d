import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { deltaSnapshot, isDeltaSnapshot } from "../langgraph-features.js";
import type { Repair } from "../repair/patterns.js";
import type { TailMode } from "../repair/repair-messages.js";
import type { RepairSettings } from "../repair/settings.js";
import { repairWith, type RepairResult } from "../repair/repair-messages.js";
import { repairList } from "./guarded-call.js";
import { answersIn, takeAnswers, type InputLists } from "./input-answers.js";
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
 * interrupt may guard (see `repairList`). `input` holds the run's copy of its input lists (see input-answers.ts): their
 * answers to calls made before the input are moved into the history.
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
    // A delta channel's periodic snapshot holds the whole list, and the graph reads it as such.
    const stored = values[channel];
    const value = isDeltaSnapshot(stored) ? stored.value : stored;
    // repairMessages returns anything that is not a message list unchanged; this skips the obvious cases cheaply.
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

/**
 * Repairs `messages` with the input's `answers` after it. Each answers its call where a placeholder would go, after a
 * real result stranded in the pending writes (`recovered`, which wins: it is the tool's own). The answers left over
 * are appended and repaired again: a result for a call already answered, or for a call not in the history (the
 * client's view was ahead of the store), is removed as a duplicate or an orphan and reported whole.
 */
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
