import {
  hasEmptyContent,
  hasHiddenCalls,
  hasLoneReasoningItem,
  hasRunnableCalls,
  hasStreamLeftovers,
  isRemoveMessage,
  rawCallId,
  rawToolCallIdOf,
  roleOf,
  toolCallsOf,
} from "../messages/message-view.js";
import { EVERY_RULE, type RoleOrder } from "./provider-rules.js";
import { isSyntheticMessage } from "./synthetic.js";
import { addId, addValidId, resetIds } from "./unique-ids.js";

/** What came last in the conversation, as far as turn-taking goes. System and unknown roles are transparent. */
export type TurnState = "none" | "human" | "ai" | "tools";

/**
 * Whether a Human message may come after `prev` under `order`: a Human right after a Human breaks alternation
 * (pattern A); right after tool results it needs an AIMessage first (pattern C).
 */
export function humanMayFollow(prev: TurnState, order: RoleOrder): boolean {
  return prev === "human" ? !order.A : prev !== "tools" || !order.C;
}

/** Whether an AIMessage may come after `prev` under `order`: first (pattern J), or right after a reply (pattern K). */
export function replyMayFollow(prev: TurnState, order: RoleOrder): boolean {
  return prev === "none" ? !order.J : prev !== "ai" || !order.K;
}

/** How the engine closes a history: the role-order rules it applies, and whether its end is a broken run's. */
export interface Closing {
  order: RoleOrder;
  /**
   * Whether a new HumanMessage will follow the end (the end is closed then), and whether the end is what a run
   * that stopped midway left (closed for every provider) rather than a finished run's (closed under `order`).
   */
  end: "open" | "leftovers" | "finished";
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
export function isWellFormed(messages: readonly unknown[], tailStart: number, { order, end }: Closing): boolean {
  let prev: TurnState = "none";
  let calls: readonly unknown[] = NO_CALLS;
  let answered = 0;
  resetIds();
  for (let i = 0; i < tailStart; i++) {
    const message = messages[i];
    const role = roleOf(message);
    if (answered < calls.length) {
      // Rule 1: the results come right after their AIMessage, one per call, in call order.
      if (role !== "tool" || rawToolCallIdOf(message) !== rawCallId(calls[answered])) return false;
      answered++;
      continue;
    }
    if (role === "tool") return false; // rule 2: a result with no call left to answer
    if (role === "ai") {
      if (!replyMayFollow(prev, order)) return false;
      const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
      calls = Array.isArray(toolCalls) ? toolCalls : NO_CALLS;
      answered = 0;
      if (isEmptyReply(message, calls.length) || hasHiddenCalls(message)) return false;
      if (hasStreamLeftovers(message) || hasLoneReasoningItem(message)) return false;
      for (let k = 0; k < calls.length; k++) {
        const call = calls[k];
        if (typeof call !== "object" || call === null) return false;
        if (!addValidId(rawCallId(call))) return false;
      }
      prev = calls.length > 0 ? "tools" : "ai";
    } else if (role === "human") {
      if (!humanMayFollow(prev, order)) return false;
      prev = "human";
    } else if (role === "other" && isRemoveMessage(message)) {
      return false;
    } else if (role === "system" && isSyntheticMessage(message)) {
      prev = "ai"; // a marker sent as a SystemMessage (`bridgeRole: "system"`) stands for the reply it marks
    }
  }
  if (answered < calls.length || !tailIdsFree(messages, tailStart)) return false;
  if (tailStart < messages.length) {
    const first = roleOf(messages[tailStart]);
    return first === "human" ? humanMayFollow(prev, order) : first !== "ai" || replyMayFollow(prev, order);
  }
  return end === "open" || humanMayFollow(prev, end === "leftovers" ? EVERY_RULE : order);
}
