import { hasToolCalls, roleOf } from "../messages/message-view.js";

/**
 * Where the tail of a history starts: the part a resumed run may still
 * complete, so a "preserve" read leaves it untouched.
 *
 * The tail is a trailing run of HumanMessages (the reply is still to come), or
 * the last AIMessage with tool calls plus the ToolMessages after it (tool
 * results are still to come), or a trailing run of ToolMessages with no such
 * AIMessage before it. A history that ends in a plain AIMessage has no tail
 * (returns `messages.length`).
 */
export function findTailStart(messages: readonly unknown[]): number {
  let i = messages.length - 1;
  if (i < 0) return 0;
  const last = roleOf(messages[i]);
  if (last === "human") {
    while (i >= 0 && roleOf(messages[i]) === "human") i--;
    return i + 1;
  }
  if (last === "tool") {
    while (i >= 0 && roleOf(messages[i]) === "tool") i--;
    return i >= 0 && roleOf(messages[i]) === "ai" && hasToolCalls(messages[i]) ? i : i + 1;
  }
  return last === "ai" && hasToolCalls(messages[i]) ? i : messages.length;
}
