import type { BaseMessage } from "@langchain/core/messages";
import { isMessageList, roleOf, toolCallsOf } from "../messages/message-view.js";
import { emit } from "./emit.js";
import type { Repair } from "./patterns.js";
import { answerEveryCall } from "./patterns/unanswered-tool-calls.js";
import { planCallIds } from "./patterns/invalid-call-id.js";
import type { CleanedReply } from "./reply-cleaning.js";
import { segment } from "./segment.js";
import { resolveRepairSettings, type RepairRules, type RepairSettings } from "./settings.js";
import { findTailStart, type TailMode } from "./tail.js";
import { assertOneOf } from "./validate.js";
import { endsOpen, isWellFormed, replyContext, type RepairContext } from "./well-formed.js";

export type { TailMode };

/** Options of {@link repairMessages}. */
export interface RepairOptions extends RepairRules {
  /** How the end of the history is treated. @default "repair" */
  tail?: TailMode;
  /**
   * Finished tool results held outside the list (a checkpoint's `pendingWrites`): they answer the last turn's calls
   * instead of placeholders (pattern N), unless the tail is preserved.
   * @default []
   */
  recoveredResults?: readonly unknown[];
}

/** What {@link repairMessages} returns; inserted messages are `@langchain/core` messages whatever the input holds. */
export interface RepairResult<T = unknown> {
  /** The repaired list; the input array itself when nothing needed repair. */
  messages: (T | BaseMessage)[];
  /** Empty when `messages` is the input. */
  repairs: Repair[];
  /** The `recoveredResults` entries used, so their holder can drop them. */
  usedRecovered: unknown[];
}

const TAIL_MODES: readonly TailMode[] = ["repair", "finished", "preserve", "request"];

function countRemovedBefore(removals: readonly Repair[], length: number): Int32Array {
  const counts = new Int32Array(length + 1);
  for (const { index } of removals) counts[index + 1] = 1;
  for (let i = 0; i < length; i++) counts[i + 1] = counts[i + 1]! + counts[i]!;
  return counts;
}

/**
 * Repairs a chat history so every provider accepts it (docs/repairs.md): every tool call answered right after its
 * AIMessage, no orphan or duplicate result, no empty reply, a broken run's end closed, and the rules of `provider`.
 * Pure and idempotent; a history that needs no repair, or is not a list of messages, comes back as the same object.
 *
 * @throws InvalidOptionError (a `TypeError`) on invalid options; never on odd input
 */
export function repairMessages<T>(messages: readonly T[], options?: RepairOptions): RepairResult<T>;
export function repairMessages(messages: unknown, options?: RepairOptions): RepairResult;
export function repairMessages(messages: unknown, options: RepairOptions = {}): RepairResult {
  const { tail = "repair", recoveredResults = [] } = options;
  assertOneOf("tail", tail, TAIL_MODES);
  return repairWith(messages, resolveRepairSettings(options), tail, recoveredResults);
}

interface Read {
  tailStart: number;
  context: RepairContext;
}

function readOf(messages: readonly unknown[], settings: RepairSettings, tail: TailMode): Read {
  const tailStart = tail === "preserve" ? findTailStart(messages) : messages.length;
  // Without a tail, "preserve" closes as "repair".
  const closedAs = tail === "preserve" && tailStart === messages.length ? "repair" : tail;
  const { rules, model, toClaude, store } = settings;
  return { tailStart, context: { rules, model, toClaude, store, tail: closedAs } };
}

/** One walk over a healthy history. */
function isClean(messages: readonly unknown[], { tailStart, context }: Read): boolean {
  // A broken run's open end is closed: the check spares the rebuild a walk over the whole list.
  const mustRebuild = context.tail === "repair" && endsOpen(messages);
  return !mustRebuild && isWellFormed(messages, tailStart, context);
}

/** {@link repairMessages} with options resolved once, for the checkpointer and the middleware. @internal */
export function repairWith(
  messages: unknown,
  settings: RepairSettings,
  tail: TailMode,
  recoveredResults: readonly unknown[] = [],
): RepairResult {
  const unchanged = { messages: messages as unknown[], repairs: [], usedRecovered: [] };
  if (!Array.isArray(messages) || messages.length === 0) return unchanged;
  const read = readOf(messages, settings, tail);
  // A clean list comes back as is, so only a rebuild needs isMessageList.
  if (isClean(messages, read) || !isMessageList(messages)) return unchanged;
  return rebuild(messages, settings, tail, read, recoveredResults);
}

/** The clean check and the rebuild, each on its own, for the property test. @internal */
export function cleanCheckAndRebuild(
  messages: readonly unknown[],
  settings: RepairSettings,
  tail: TailMode,
): { clean: boolean; rebuilt: RepairResult } {
  const read = readOf(messages, settings, tail);
  return { clean: isClean(messages, read), rebuilt: rebuild(messages, settings, tail, read, []) };
}

function rebuild(
  messages: readonly unknown[],
  settings: RepairSettings,
  tail: TailMode,
  { tailStart, context }: Read,
  recoveredResults: readonly unknown[],
): RepairResult {
  const repairs: Repair[] = [];
  const usedRecovered: unknown[] = [];
  const calls = messages.map((m) => (roleOf(m) === "ai" ? toolCallsOf(m) : undefined));
  const renamed = planCallIds(messages, calls, tailStart);
  const cleaned = new Map<number, CleanedReply>();
  const replies = replyContext(messages, tailStart, context);
  replies.renamed = renamed;
  const segments = segment(messages, tailStart, calls, renamed, replies, settings.rules, cleaned, repairs);
  const last = segments[segments.length - 1];
  const answered = segments.map((part) => {
    if (typeof part === "number") return part;
    // Stranded results belong to the checkpoint's pending tasks, so only to its last turn.
    const recovered = tail !== "preserve" && part === last ? recoveredResults : [];
    return { turn: part.turn, answers: answerEveryCall(part.turn, settings.markers, recovered, usedRecovered) };
  });
  // So far `repairs` holds the removals only.
  const removedBefore = repairs.length > 0 ? countRemovedBefore(repairs, messages.length) : undefined;
  const { markers, bridgeRole } = settings;
  // Field by field, not spread: on Node 20 an object made by a spread is slow to add properties to.
  const { rules, model, toClaude, store, tail: closedAs } = context;
  const ctx = {
    rules,
    model,
    toClaude,
    store,
    tail: closedAs,
    messages,
    tailStart,
    markers,
    bridgeRole,
    removedBefore,
    cleaned,
  };
  const out = emit(answered, ctx, repairs);
  return { messages: out, repairs, usedRecovered };
}
