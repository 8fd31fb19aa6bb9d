import {
  hasEmptyContent,
  hasHiddenCalls,
  hasRunnableCalls,
  isRemoveMessage,
  rawCallId,
  rawToolCallIdOf,
  roleOf,
  toolCallsOf,
} from "../messages/message-view.js";
import { baseModel, isPausedTurn } from "../messages/anthropic-blocks.js";
import { EVERY_RULE, type ProviderRuleSet } from "./provider-rules.js";
import { needsCleaning, type ReplyPlace } from "./reply-cleaning.js";
import { isSyntheticMessage } from "./synthetic.js";
import { addId, addValidId, resetIds } from "./unique-ids.js";

/** What came last in the conversation, as far as turn-taking goes. System and unknown roles are transparent. */
export type TurnState = "none" | "human" | "ai" | "tools";

/**
 * Whether a Human message may come after `prev` under `rules`: a Human right after a Human breaks alternation
 * (pattern A); right after tool results it needs an AIMessage first (pattern C).
 */
export function humanMayFollow(prev: TurnState, rules: ProviderRuleSet): boolean {
  return prev === "human" ? !rules.A : prev !== "tools" || !rules.C;
}

/** Whether an AIMessage may come after `prev` under `rules`: first (pattern J), or right after a reply (pattern K). */
export function replyMayFollow(prev: TurnState, rules: ProviderRuleSet): boolean {
  return prev === "none" ? !rules.J : prev !== "ai" || !rules.K;
}

/**
 * Whether a model request may end after `last`, the message that came last (the reply `prev` names): not on a reply
 * under pattern Z, unless the API paused that turn to have it sent back (`pause_turn`).
 */
export function requestMayEnd(prev: TurnState, last: unknown, rules: ProviderRuleSet): boolean {
  return prev !== "ai" || !rules.Z || isPausedTurn(last);
}

/** Whether a SystemMessage after the conversation started is sent as a user turn (pattern Y). */
export const isMidHistorySystem = (message: unknown, prev: TurnState, rules: ProviderRuleSet): boolean =>
  rules.Y && prev !== "none" && !isSyntheticMessage(message);

/**
 * How the engine closes a history: the provider rules it applies, the model it goes to, and whether its end is a
 * broken run's.
 */
export interface Closing {
  rules: ProviderRuleSet;
  /** The model the history goes to, when known (pattern S). */
  model: string | undefined;
  /** Whether the history goes to a Claude model (pattern R on a thinking block without a signature). */
  toClaude: boolean;
  /** Whether the Responses API keeps the responses the history replays (pattern V); unknown when undefined. */
  store: boolean | undefined;
  /**
   * Whether a new HumanMessage will follow the end (the end is closed then), and whether the end is what a run
   * that stopped midway left (closed for every provider) rather than a finished run's (closed under `rules`).
   */
  end: "open" | "leftovers" | "finished";
}

/**
 * Where each reply of `messages` stands for the reply rules; `index` is set per reply. The current turn (after the
 * last HumanMessage) is continued only when no new input follows: the end is open, or a tail is kept for a resume.
 */
export function replyPlace(
  messages: readonly unknown[],
  tailStart: number,
  { rules, model, toClaude, store, end }: Closing,
): ReplyPlace {
  let currentTurn = messages.length;
  if (end === "open" || tailStart < messages.length) {
    currentTurn = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (roleOf(messages[i]) === "human") {
        currentTurn = i + 1;
        break;
      }
    }
  }
  return {
    messages,
    index: 0,
    model: model === undefined ? undefined : baseModel(model),
    toClaude,
    store,
    openEnd: end === "open",
    signing: rules.T,
    currentTurn,
    renamed: undefined,
  };
}

/** Whether an AIMessage with `callCount` answerable calls is an empty reply (pattern H): no calls, no content. */
export function isEmptyReply(message: unknown, callCount: number): boolean {
  return callCount === 0 && hasEmptyContent(message);
}

const NO_CALLS: readonly unknown[] = [];

/**
 * Whether the calls of the AIMessage at the tail start may keep their ids: no call before the
 * tail shares one. Tail calls are read with `toolCallsOf` (the only allocation, and only when a
 * tail with calls is preserved).
 */
function tailIdsFree(messages: readonly unknown[], tailStart: number): boolean {
  if (tailStart >= messages.length || roleOf(messages[tailStart]) !== "ai") return true;
  const calls = toolCallsOf(messages[tailStart]);
  for (let k = 0; k < calls.length; k++) if (!addId(calls[k]!.id, true)) return false;
  return true;
}

/**
 * Whether a history that must be closed at its end (`closeEnd`) is open there: it ends in a HumanMessage,
 * a tool result, or an AIMessage with calls, so {@link isWellFormed} is false whatever comes before.
 * A cancelled run's history ends so; the check spares the rebuild a walk over the whole list.
 */
export function endsOpen(messages: readonly unknown[]): boolean {
  const last = messages[messages.length - 1];
  const role = roleOf(last);
  return role === "human" || role === "tool" || (role === "ai" && hasRunnableCalls(last));
}

/**
 * Whether `messages[0, tailStart)` already obeys the provider rules, and the
 * boundary with what follows it does too: the tail's first message, or, when
 * the end is closed, the new HumanMessage the next turn will append.
 *
 * This is the clean path of every read, so it allocates nothing in the usual
 * case: calls are read in place from `tool_calls`, and a clean AIMessage has
 * no call elsewhere (`hasHiddenCalls`) and only valid, unique ids (`addId`).
 * It must agree with the rebuild in `repair-messages.ts`: true exactly when
 * the rebuild would change nothing.
 */
export function isWellFormed(messages: readonly unknown[], tailStart: number, closing: Closing): boolean {
  const { rules, end } = closing;
  let prev: TurnState = "none";
  let calls: readonly unknown[] = NO_CALLS;
  let answered = 0;
  let place: ReplyPlace | undefined;
  resetIds();
  for (let i = 0; i < tailStart; i++) {
    const message = messages[i];
    const role = roleOf(message);
    if (answered < calls.length) {
      // Rule 1: the results come right after their AIMessage, one per call, in call order.
      if (role !== "tool" || rawToolCallIdOf(message) !== rawCallId(calls[answered])) return false;
      if (rules.W && hasEmptyContent(message)) return false;
      answered++;
      continue;
    }
    if (role === "tool") return false; // rule 2: a result with no call left to answer
    if (role === "ai") {
      if (!replyMayFollow(prev, rules)) return false;
      const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
      calls = Array.isArray(toolCalls) ? toolCalls : NO_CALLS;
      answered = 0;
      if (isEmptyReply(message, calls.length) || hasHiddenCalls(message)) return false;
      place ??= replyPlace(messages, tailStart, closing);
      place.index = i;
      if (needsCleaning(message, place)) return false;
      for (let k = 0; k < calls.length; k++) {
        const call = calls[k];
        if (typeof call !== "object" || call === null) return false;
        if (!addValidId(rawCallId(call))) return false;
      }
      prev = calls.length > 0 ? "tools" : "ai";
    } else if (role === "human") {
      if (!humanMayFollow(prev, rules) || (rules.X && hasEmptyContent(message))) return false;
      prev = "human";
    } else if (role === "other" && isRemoveMessage(message)) {
      return false;
    } else if (role === "system") {
      if (isMidHistorySystem(message, prev, rules)) return false;
      // A marker sent as a SystemMessage (`bridgeRole: "system"`) stands for the reply it marks.
      if (isSyntheticMessage(message)) prev = "ai";
    }
  }
  if (answered < calls.length || !tailIdsFree(messages, tailStart)) return false;
  if (tailStart < messages.length) {
    const first = roleOf(messages[tailStart]);
    return first === "human" ? humanMayFollow(prev, rules) : first !== "ai" || replyMayFollow(prev, rules);
  }
  if (end === "open") return requestMayEnd(prev, messages[tailStart - 1], rules);
  return humanMayFollow(prev, end === "leftovers" ? EVERY_RULE : rules);
}
