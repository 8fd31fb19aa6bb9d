import { hasRunnableCalls, rawCallId, rawToolCallIdOf, roleOf } from "../messages/message-view.js";

/** Whether `messages[from, end)` are results for distinct `tool_calls` of the AIMessage `ai`. */
function answersOf(ai: unknown, messages: readonly unknown[], from: number, end: number): boolean {
  const calls = (ai as { tool_calls: unknown[] }).tool_calls;
  for (let i = from; i < end; i++) {
    const id = rawToolCallIdOf(messages[i]);
    if (!calls.some((c) => rawCallId(c) === id)) return false;
    for (let j = from; j < i; j++) if (rawToolCallIdOf(messages[j]) === id) return false;
  }
  return true;
}

/**
 * Where the tail of a history starts: the part a resumed run may still
 * complete, so a "preserve" read leaves it untouched.
 *
 * The tail is a trailing run of HumanMessages (the reply is still to come), or
 * the last AIMessage with `tool_calls` plus the ToolMessages after it, when
 * each answers a different one of its calls (tool results are still to come).
 * Nothing else can be completed by a resumed run, so there is no tail (returns
 * `end`) after a plain AIMessage, after an AIMessage whose calls are all
 * invalid (ToolNode runs `tool_calls` only), or after tool results that answer
 * an earlier turn or nothing. `end` reads `messages[0, end)` as the history.
 */
export function findTailStart(messages: readonly unknown[], end = messages.length): number {
  let i = end - 1;
  if (i < 0) return 0;
  const last = roleOf(messages[i]);
  if (last === "human") {
    while (i >= 0 && roleOf(messages[i]) === "human") i--;
    return i + 1;
  }
  while (i >= 0 && roleOf(messages[i]) === "tool") i--;
  if (i < 0 || roleOf(messages[i]) !== "ai" || !hasRunnableCalls(messages[i])) return end;
  return answersOf(messages[i], messages, i + 1, end) ? i : end;
}

/**
 * Whether the last user turn in `messages` follows a user turn or tool results with nothing between: what the read
 * for that input closed at the end of a broken run. A delta channel stores no repaired list, so the later reads of
 * that run's checkpoints hold the turn unclosed where that read closed it.
 */
export function lastTurnUnclosed(messages: readonly unknown[]): boolean {
  let i = messages.length - 1;
  while (i >= 0 && roleOf(messages[i]) !== "human") i--;
  for (i--; i >= 0; i--) {
    const role = roleOf(messages[i]);
    if (role === "human" || role === "tool") return true;
    if (role === "ai") return false;
  }
  return false;
}
