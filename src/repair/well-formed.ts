import { callIdOf, hasEmptyContent, roleOf, toolCallIdOf, toolCallsOf, type ToolCallRef } from "../messages/message-view.js";

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

/** Whether an AIMessage with `callCount` answerable calls is an empty reply (pattern H): no calls, no content. */
export function isEmptyReply(message: unknown, callCount: number): boolean {
  return callCount === 0 && hasEmptyContent(message);
}

type CallList = readonly { id?: unknown }[];
const NO_CALLS: CallList = [];

/** Whether every call of a list can be answered, so ids can be read in place (the rule is `callIdOf`'s). */
function allHaveIds(calls: CallList): boolean {
  for (let i = 0; i < calls.length; i++) if (callIdOf(calls[i]) === undefined) return false;
  return true;
}

/**
 * Whether `messages[0, tailStart)` already obeys the provider rules, and the
 * boundary with what follows it does too: the tail's first message, or, when
 * `closeEnd`, the new HumanMessage the next turn will append.
 *
 * This is the clean path of every read, so it allocates nothing in the usual
 * case: call ids are read in place from `tool_calls` and `invalid_tool_calls`
 * (`toolCallsOf`, which allocates, is used only when some call lacks an id).
 * It must agree with the rebuild in `repair-messages.ts`: true exactly when
 * the rebuild would change nothing.
 */
export function isWellFormed(messages: readonly unknown[], tailStart: number, closeEnd: boolean): boolean {
  let prev: TurnState = "none";
  // The calls of the last AIMessage: in place (valid, then invalid), or resolved by toolCallsOf.
  let valid: CallList = NO_CALLS;
  let invalid: CallList = NO_CALLS;
  let resolved: readonly ToolCallRef[] | undefined;
  let total = 0;
  let answered = 0;
  const expectedId = (k: number): unknown => (resolved ? resolved[k]!.id : k < valid.length ? valid[k]!.id : invalid[k - valid.length]!.id);
  for (let i = 0; i < tailStart; i++) {
    const message = messages[i];
    const role = roleOf(message);
    if (answered < total) {
      // Rule 1: the results come right after their AIMessage, one per call, in call order.
      if (role !== "tool" || toolCallIdOf(message) !== expectedId(answered)) return false;
      answered++;
      continue;
    }
    if (role === "tool") return false; // rule 2: a result with no call left to answer
    if (role === "ai") {
      const m = message as { tool_calls?: unknown; invalid_tool_calls?: unknown };
      valid = Array.isArray(m.tool_calls) ? m.tool_calls : NO_CALLS;
      invalid = Array.isArray(m.invalid_tool_calls) ? m.invalid_tool_calls : NO_CALLS;
      resolved = allHaveIds(valid) && allHaveIds(invalid) ? undefined : toolCallsOf(message);
      total = resolved ? resolved.length : valid.length + invalid.length;
      answered = 0;
      if (isEmptyReply(message, total)) return false;
      prev = total > 0 ? "tools" : "ai";
    } else if (role === "human") {
      if (!humanMayFollow(prev)) return false;
      prev = "human";
    }
  }
  if (answered < total) return false;
  if (tailStart < messages.length) return roleOf(messages[tailStart]) !== "human" || humanMayFollow(prev);
  return !closeEnd || humanMayFollow(prev);
}
