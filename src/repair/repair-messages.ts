import type { BaseMessage } from "@langchain/core/messages";
import { isMessageList, roleOf, toolCallsOf } from "../messages/message-view.js";
import { emit, type EndKind } from "./emit.js";
import type { Repair } from "./patterns.js";
import { answerEveryCall } from "./patterns/unanswered-tool-calls.js";
import { planCallIds } from "./patterns/invalid-call-id.js";
import type { CleanedReply } from "./reply-cleaning.js";
import { segment } from "./segment.js";
import { resolveRepairSettings, type RepairRules, type RepairSettings } from "./settings.js";
import { findTailStart } from "./tail.js";
import { assertOneOf } from "./validate.js";
import { endsOpen, isWellFormed, replyPlace, type Closing } from "./well-formed.js";

/**
 * How the end of the history is treated.
 * - `"repair"`: the history is what a run that stopped midway left, and a new
 *   HumanMessage comes next, so a trailing HumanMessage gets a marker reply,
 *   unanswered calls get placeholders and trailing tool results get a closing
 *   AIMessage, for every provider.
 * - `"finished"`: the history is a finished run's and a new HumanMessage comes
 *   next: calls left open get placeholders and a closing AIMessage, as with
 *   `"repair"`; a HumanMessage or tool results the run ended on are closed only
 *   under the rules of `provider` (a tool that ends the run leaves its results
 *   last on purpose).
 * - `"preserve"`: a run may still complete the tail (see `findTailStart`), so
 *   it is left exactly as it is; only what comes before it is repaired. A
 *   history with no such tail is repaired as with `"repair"`.
 * - `"request"`: the history is about to be sent to the model, so it may end in
 *   the new input (a HumanMessage) or in tool results. Unanswered calls get
 *   placeholders as with `"repair"`; after the last message only a marker user
 *   turn is added, where the history ends on a reply the provider takes no
 *   prefill after (pattern Z), or the repair made that end.
 */
export type TailMode = "repair" | "finished" | "preserve" | "request";

/** Options of {@link repairMessages}: {@link RepairRules}, and how this history's end is read. */
export interface RepairOptions extends RepairRules {
  /** How the end of the history is treated. @default "repair" */
  tail?: TailMode;
  /**
   * Finished tool results held outside the list (a checkpoint's `pendingWrites`). Unless the tail is preserved, they
   * answer the last turn's unanswered calls instead of placeholders (pattern N). Used ones are listed in
   * `usedRecovered`.
   * @default []
   */
  recoveredResults?: readonly unknown[];
}

/**
 * What {@link repairMessages} returns. `T` is the input's message type; the messages the repair inserts are
 * `@langchain/core` messages, whatever the input holds.
 */
export interface RepairResult<T = unknown> {
  /** The repaired list; the input array itself when nothing needed repair. */
  messages: (T | BaseMessage)[];
  /** Every change made, in order. Empty when `messages` is the input. */
  repairs: Repair[];
  /** The entries of `recoveredResults` the repair put into the list (the objects given), so their holder can drop them. */
  usedRecovered: unknown[];
}

const TAIL_MODES: readonly TailMode[] = ["repair", "finished", "preserve", "request"];

/** For each position, how many messages before it `removals` removed. */
function countRemovedBefore(removals: readonly Repair[], length: number): Int32Array {
  const counts = new Int32Array(length + 1);
  for (const { index } of removals) counts[index + 1] = 1;
  for (let i = 0; i < length; i++) counts[i + 1] = counts[i + 1]! + counts[i]!;
  return counts;
}

/**
 * Repairs a chat history so that every provider accepts it (the rules in the
 * README): every tool call answered right after its AIMessage, no orphan or
 * duplicate result, no empty reply, what a broken run left closed; and, for
 * the providers that need it (`provider`), the user first and roles alternating.
 * A history that breaks no rule that applies comes back as it is.
 *
 * Pure: the input and its messages are never mutated, inserted messages get
 * deterministic ids, and repairing the output again changes nothing. A
 * history that needs no repair, and anything that is not a list of messages,
 * is returned as the same object with no repairs. Never throws on odd input;
 * throws an `InvalidOptionError` (a `TypeError`) on invalid options.
 */
export function repairMessages<T>(messages: readonly T[], options?: RepairOptions): RepairResult<T>;
export function repairMessages(messages: unknown, options?: RepairOptions): RepairResult;
export function repairMessages(messages: unknown, options: RepairOptions = {}): RepairResult {
  const { tail = "repair", recoveredResults = [] } = options;
  assertOneOf("tail", tail, TAIL_MODES);
  return repairWith(messages, resolveRepairSettings(options), tail, recoveredResults);
}

/** How one history is read: where its tail starts, and how its end is closed. */
interface Read {
  tailStart: number;
  closing: Closing;
}

function readOf(messages: readonly unknown[], settings: RepairSettings, tail: TailMode): Read {
  const tailStart = tail === "preserve" ? findTailStart(messages) : messages.length;
  // "request" answers every call like "repair" but adds no reply after the end: the model is about to give it.
  // Without a tail a resumed run has nothing to complete, so "preserve" closes the end as "repair" does.
  const end: EndKind =
    tail === "repair" || (tail === "preserve" && tailStart === messages.length)
      ? "leftovers"
      : tail === "finished"
        ? "finished"
        : "open";
  const { rules, model, toClaude, store } = settings;
  return { tailStart, closing: { rules, model, toClaude, store, end } };
}

/** The clean check: whether the rebuild would change nothing. One walk over a healthy history. */
function isClean(messages: readonly unknown[], { tailStart, closing }: Read): boolean {
  // A broken run's end that is open is closed: the check spares the rebuild a walk over the whole list.
  const mustRebuild = closing.end === "leftovers" && tailStart === messages.length && endsOpen(messages);
  return !mustRebuild && isWellFormed(messages, tailStart, closing);
}

/**
 * {@link repairMessages} with options already resolved: the checkpointer's and the middleware's path, which
 * validated them once.
 * @internal
 */
export function repairWith(
  messages: unknown,
  settings: RepairSettings,
  tail: TailMode,
  recoveredResults: readonly unknown[] = [],
): RepairResult {
  const unchanged = { messages: messages as unknown[], repairs: [], usedRecovered: [] };
  if (!Array.isArray(messages) || messages.length === 0) return unchanged;
  const read = readOf(messages, settings, tail);
  // A clean list comes back as is whether or not it holds messages, so only a rebuild needs isMessageList.
  if (isClean(messages, read) || !isMessageList(messages)) return unchanged;
  return rebuild(messages, settings, tail, read, recoveredResults);
}

/**
 * The clean check's verdict on a non-empty message list, and the rebuild's result, each on its own: what the
 * property test holds to each other.
 * @internal
 */
export function cleanCheckAndRebuild(
  messages: readonly unknown[],
  settings: RepairSettings,
  tail: TailMode,
): { clean: boolean; rebuilt: RepairResult } {
  const read = readOf(messages, settings, tail);
  return { clean: isClean(messages, read), rebuilt: rebuild(messages, settings, tail, read, []) };
}

/** Every repair `messages` needs, as a new list. */
function rebuild(
  messages: readonly unknown[],
  settings: RepairSettings,
  tail: TailMode,
  { tailStart, closing }: Read,
  recoveredResults: readonly unknown[],
): RepairResult {
  const repairs: Repair[] = [];
  const usedRecovered: unknown[] = [];
  const calls = messages.map((m) => (roleOf(m) === "ai" ? toolCallsOf(m) : undefined));
  const renamed = planCallIds(messages, calls, tailStart);
  const cleaned = new Map<number, CleanedReply>();
  const place = replyPlace(messages, tailStart, closing);
  place.renamed = renamed;
  const units = segment(messages, tailStart, calls, renamed, place, settings.rules, cleaned, repairs);
  const last = units[units.length - 1];
  const answered = units.map((unit) => {
    if (typeof unit === "number") return unit;
    // Stranded results belong to the pending tasks of the checkpoint, so only to its last turn.
    const recovered = tail !== "preserve" && unit === last ? recoveredResults : [];
    return { turn: unit.turn, answers: answerEveryCall(unit.turn, settings.markers, recovered, usedRecovered) };
  });
  // So far `repairs` holds the removals only: with none, every result keeps its rank.
  const removedBefore = repairs.length > 0 ? countRemovedBefore(repairs, messages.length) : undefined;
  const { rules, model, toClaude, store, end } = closing;
  const { markers, bridgeRole } = settings;
  const ctx = { rules, model, toClaude, store, end, messages, tailStart, markers, bridgeRole, removedBefore, cleaned };
  const out = emit(answered, ctx, repairs);
  return { messages: out, repairs, usedRecovered };
}
