import { hasRunnableCalls, rawCallId, rawToolCallIdOf, roleOf } from "../../messages/message-view.js";

/**
 * What the tail of the history is, which says how it is repaired (docs/tail-policy.md):
 * - `"stopped"`: a stopped run's leftovers, closed for every provider;
 * - `"finished"`: a finished run's; calls left open are answered, its last turn closed only where `provider` needs it;
 * - `"resumable"`: what a run may still complete, kept as it is;
 * - `"request"`: about to go to the model, which gives the next reply.
 */
export type TailKind = "stopped" | "finished" | "resumable" | "request";

/**
 * @deprecated The same as {@link TailKind}, with its old values (`"repair"` for `"stopped"`, `"preserve"` for
 * `"resumable"`).
 */
export type TailMode = TailKind | "repair" | "preserve";

/** The kind an old value names. @internal */
export const tailKindOf = (tail: TailMode): TailKind =>
  tail === "repair" ? "stopped" : tail === "preserve" ? "resumable" : tail;

/** Results for distinct `tool_calls` of `ai`. */
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
 * What a resumed run may still complete: trailing HumanMessages, or the last AIMessage with `tool_calls` and results
 * for distinct calls of it. None (`end`) after a plain reply, a reply whose calls are all invalid (ToolNode runs
 * `tool_calls` only), or results of an earlier turn.
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

/** What the read for that input closed; a delta channel stores no repaired list, so later reads see it unclosed. */
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
