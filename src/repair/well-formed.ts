import { hasEmptyContent, roleOf, toolCallIdOf, toolCallsOf, type ToolCallRef } from "../messages/message-view.js";

/** What came last in the conversation, as far as turn-taking goes. System and unknown roles are transparent. */
export type TurnState = "none" | "human" | "ai" | "tools";

/**
 * Whether a Human message may come after `prev`. A Human right after a Human
 * breaks alternation (pattern A); right after tool results it needs an
 * AIMessage first (pattern C).
 */
export function humanMayFollow(prev: TurnState): boolean {
  return prev !== "human" && prev !== "tools";
}

/** Whether an AIMessage is an empty reply (pattern H): no tool calls, no content. */
export function isEmptyReply(message: unknown, calls: readonly ToolCallRef[]): boolean {
  return calls.length === 0 && hasEmptyContent(message);
}

/**
 * Whether `messages[0, tailStart)` already obeys the provider rules, and the
 * boundary with what follows it does too: the tail's first message, or, when
 * `closeEnd`, the new HumanMessage the next turn will append.
 *
 * This is the clean path of every read, so it allocates nothing. It must agree
 * with the rebuild in `repair-messages.ts`: true exactly when the rebuild would
 * change nothing.
 */
export function isWellFormed(messages: readonly unknown[], tailStart: number, closeEnd: boolean): boolean {
  let prev: TurnState = "none";
  let calls: readonly ToolCallRef[] = [];
  let answered = 0;
  for (let i = 0; i < tailStart; i++) {
    const message = messages[i];
    const role = roleOf(message);
    if (answered < calls.length) {
      // Rule 1: the results come right after their AIMessage, one per call, in call order.
      if (role !== "tool" || toolCallIdOf(message) !== calls[answered]!.id) return false;
      answered++;
      continue;
    }
    if (role === "tool") return false; // rule 2: a result with no call left to answer
    if (role === "ai") {
      const own = toolCallsOf(message);
      if (isEmptyReply(message, own)) return false;
      calls = own;
      answered = 0;
      prev = own.length > 0 ? "tools" : "ai";
    } else if (role === "human") {
      if (!humanMayFollow(prev)) return false;
      prev = "human";
    }
  }
  if (answered < calls.length) return false;
  if (tailStart < messages.length) return roleOf(messages[tailStart]) !== "human" || humanMayFollow(prev);
  return !closeEnd || humanMayFollow(prev);
}
