import type { BaseMessage } from "@langchain/core/messages";
import { isMessageList, roleOf, toolCallsOf } from "../messages/message-view.js";
import { emit } from "./walk/emit.js";
import type { Repair } from "./report/catalog.js";
import { answerEveryCall } from "./walk/answer-every-call.js";
import type { ReplyCopy } from "./walk/reply-rules.js";
import { reportOf } from "./report/report-of.js";
import { segment, type Segment } from "./walk/segment.js";
import { resolveRepairSettings, type RepairSettings, type ResolvedRepairSettings } from "./settings.js";
import { findTailStart, tailKindOf, type TailKind, type TailMode } from "./walk/tail.js";
import { assertOneOf, assertOption } from "../options/assert-option.js";
import { tailOpen, isWellFormed, replyContext, type RepairContext } from "./walk/well-formed.js";

export type { TailKind, TailMode };

/** Options of {@link repairMessages}. */
export interface RepairOptions extends RepairSettings {
  /** What the history's tail is; the old `"repair"` and `"preserve"` still work (deprecated). @default "stopped" */
  tail?: TailMode;
  /**
   * Finished tool results held outside the list (a checkpoint's `pendingWrites`): they answer the last turn's calls
   * instead of placeholders (`stranded-tool-result`), unless the tail is preserved.
   * @default []
   */
  recoveredResults?: readonly unknown[];
  /**
   * Where the next run's input starts in `messages`: the stored history before it ends where `tail` says
   * (`"stopped"`: a stopped run's leftovers, closed for every provider), and the list ends in a model request (as
   * `"request"`); a result of the input yields to a finished one in `recoveredResults` (`stand-in-tool-result`). An
   * integer from 0 to the list's length; not with `tail: "resumable"`.
   * @default undefined: no input, the end is the stored history's
   */
  inputStart?: number;
}

/** What {@link repairMessages} returns; inserted messages are `@langchain/core` messages whatever the input holds. */
export interface RepairResult<T = unknown> {
  /** The repaired list; the input array itself when nothing needed repair. */
  messages: (T | BaseMessage)[];
  /** Empty when `messages` is the input. */
  repairs: Repair[];
  /** The `recoveredResults` entries used, so their holder can drop them. */
  usedRecovered: unknown[];
  /** With `inputStart`: where the input starts in `messages`. */
  inputStart?: number;
}

const TAILS: readonly TailMode[] = ["stopped", "finished", "resumable", "request", "repair", "preserve"];

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
  const { tail: given = "stopped", recoveredResults = [], inputStart } = options;
  assertOneOf("tail", given, TAILS);
  const tail = tailKindOf(given);
  if (inputStart !== undefined) assertInputStart(inputStart, tail, messages);
  return repairWith(messages, resolveRepairSettings(options), tail, recoveredResults, inputStart);
}

function assertInputStart(inputStart: unknown, tail: TailKind, messages: unknown): void {
  const length = Array.isArray(messages) ? messages.length : 0;
  const valid = Number.isInteger(inputStart) && (inputStart as number) >= 0 && (inputStart as number) <= length;
  assertOption("inputStart", inputStart, valid, `must be an integer from 0 to the list's length (${length})`);
  assertOption("inputStart", inputStart, tail !== "resumable", 'takes a tail the input follows, not "resumable"');
}

interface Read {
  tailStart: number;
  context: RepairContext;
  /** As given. */
  inputStart: number | undefined;
}

function readOf(
  messages: readonly unknown[],
  settings: ResolvedRepairSettings,
  tail: TailKind,
  inputStart?: number,
): Read {
  const { length } = messages;
  const tailStart = tail === "resumable" ? findTailStart(messages) : length;
  const input = inputStart ?? length;
  // Without a tail, "resumable" closes as "stopped"; with input, the list ends in a model request.
  const closedAs =
    inputStart !== undefined ? "request" : tail === "resumable" && tailStart === length ? "stopped" : tail;
  const leftoversAt = tail === "stopped" && input < length ? input : -1;
  const { rules, model, toClaude, store } = settings;
  const context = { rules, model, toClaude, store, tail: closedAs, inputStart: input, leftoversAt };
  return { tailStart, context, inputStart };
}

/** One walk over a healthy history. */
function isClean(messages: readonly unknown[], { tailStart, context }: Read, recovered: readonly unknown[]): boolean {
  // A stopped run's open tail is closed: the check spares the rebuild a walk over the whole list.
  const mustRebuild = context.tail === "stopped" && tailOpen(messages);
  // A finished result may have to take the place of a stand-in the input holds (`stand-in-tool-result`).
  const mayYield = recovered.length > 0 && context.inputStart < messages.length;
  return !mustRebuild && !mayYield && isWellFormed(messages, tailStart, context);
}

/** {@link repairMessages} with options resolved once, for the checkpointer and the middleware. @internal */
export function repairWith(
  messages: unknown,
  settings: ResolvedRepairSettings,
  tail: TailKind,
  recoveredResults: readonly unknown[] = [],
  inputStart?: number,
): RepairResult {
  const unchanged: RepairResult = { messages: messages as unknown[], repairs: [], usedRecovered: [] };
  if (inputStart !== undefined) unchanged.inputStart = inputStart;
  if (!Array.isArray(messages) || messages.length === 0) return unchanged;
  const read = readOf(messages, settings, tail, inputStart);
  // A clean list comes back as is, so only a rebuild needs isMessageList.
  if (isClean(messages, read, recoveredResults) || !isMessageList(messages)) return unchanged;
  const rebuilt = rebuild(messages, settings, tail, read, recoveredResults);
  return rebuilt.repairs.length === 0 ? unchanged : rebuilt;
}

/** The clean check and the rebuild, each on its own, for the property test. @internal */
export function cleanCheckAndRebuild(
  messages: readonly unknown[],
  settings: ResolvedRepairSettings,
  tail: TailKind,
  inputStart?: number,
): { clean: boolean; rebuilt: RepairResult } {
  const read = readOf(messages, settings, tail, inputStart);
  return { clean: isClean(messages, read, []), rebuilt: rebuild(messages, settings, tail, read, []) };
}

function rebuild(
  messages: readonly unknown[],
  settings: ResolvedRepairSettings,
  tail: TailKind,
  { tailStart, context, inputStart: given }: Read,
  recoveredResults: readonly unknown[],
): RepairResult {
  const repairs: Repair[] = [];
  const usedRecovered: unknown[] = [];
  const calls = messages.map((m) => (roleOf(m) === "ai" ? toolCallsOf(m) : undefined));
  const { pairing } = settings.rules;
  const renamed = pairing.ids.pairing.plan(messages, calls, tailStart);
  const replyCopies = new Map<number, ReplyCopy>();
  const replies = replyContext(messages, tailStart, context);
  replies.renamed = renamed;
  const { inputStart } = context;
  const segments = segment(
    messages,
    tailStart,
    inputStart,
    calls,
    renamed,
    replies,
    settings.rules,
    replyCopies,
    repairs,
  );
  const last = lastStored(segments, inputStart);
  const answered = segments.map((part) => {
    if (typeof part === "number") return part;
    // Stranded results belong to the checkpoint's pending tasks, so only to its last turn.
    const recovered = tail !== "resumable" && part === last ? recoveredResults : [];
    for (const { message, index } of pairing.yields.pairing.yieldToFinished(part.turn, recovered, inputStart))
      repairs.push(reportOf(pairing.yields, "removed", index, message));
    const answers = answerEveryCall(part.turn, settings.rules, settings.markers, recovered, usedRecovered);
    return { turn: part.turn, answers };
  });
  // So far `repairs` holds the removals only.
  const removedBefore = repairs.length > 0 ? countRemovedBefore(repairs, messages.length) : undefined;
  const { markers, bridgeRole, idPrefix } = settings;
  // Field by field, not spread: on Node 20 an object made by a spread is slow to add properties to.
  const { rules, model, toClaude, store, tail: closedAs, leftoversAt } = context;
  const ctx = {
    rules,
    model,
    toClaude,
    store,
    tail: closedAs,
    inputStart,
    leftoversAt,
    messages,
    tailStart,
    markers,
    bridgeRole,
    idPrefix,
    removedBefore,
    replyCopies,
  };
  const { out, inputAt } = emit(answered, ctx, repairs);
  const result: RepairResult = { messages: out, repairs, usedRecovered };
  if (given !== undefined) result.inputStart = inputAt;
  return result;
}

/** The last segment of the stored history, before the input. */
function lastStored(segments: readonly Segment[], inputStart: number): Segment | undefined {
  for (let i = segments.length - 1; i >= 0; i--) {
    const part = segments[i]!;
    if ((typeof part === "number" ? part : part.turn.index) < inputStart) return part;
  }
  return undefined;
}
