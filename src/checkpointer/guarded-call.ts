import { roleOf } from "../messages/message-view.js";
import { repairWith, type RepairResult, type TailMode } from "../repair/repair-messages.js";
import type { RepairSettings } from "../repair/settings.js";
import { findTailStart } from "../repair/tail.js";

/**
 * Where the user turns start that follow the call a pending `interrupt()` may guard: the history ends in user
 * turns right after the last AIMessage with `tool_calls`, with a call of it still unanswered (the results after it
 * answer others of its calls). Undefined for any other history.
 *
 * `humanInTheLoopMiddleware` guards the calls of the last AIMessage, whatever follows it. A new message sent over
 * a pending approval starts a new run; a reply that then takes the id of the guarded one (LangChain's fake models
 * number their replies) replaces it in place, so the new message follows the call the new `interrupt()` guards,
 * and the approval runs that call.
 */
function guardedCallEnd(messages: readonly unknown[]): number | undefined {
  const turns = findTailStart(messages);
  if (turns === 0 || turns === messages.length || roleOf(messages[turns]) !== "human") return undefined;
  const ai = findTailStart(messages, turns);
  if (ai === turns) return undefined;
  const calls = (messages[ai] as { tool_calls: unknown[] }).tool_calls.length;
  return turns - ai - 1 < calls ? turns : undefined;
}

/**
 * Repairs one message list of a tuple read with `tail`. At a pending `interrupt()`, a preserved tail reaches back
 * to the call the interrupt may guard (see {@link guardedCallEnd}): that AIMessage, its results and the user turns
 * after it stay as stored, and everything before them is repaired as before any tail.
 */
export function repairList(
  messages: readonly unknown[],
  settings: RepairSettings,
  tail: TailMode,
  recoveredResults: readonly unknown[] | undefined,
  interrupted: boolean,
): RepairResult {
  const end = tail === "preserve" && interrupted ? guardedCallEnd(messages) : undefined;
  if (end === undefined) return repairWith(messages, settings, tail, recoveredResults);
  // The user turns go back after the repaired rest, whose own tail is the guarded AIMessage and its results.
  const rest = repairWith(messages.slice(0, end), settings, "preserve");
  if (rest.repairs.length === 0) return { messages: messages as unknown[], repairs: [], usedRecovered: [] };
  return { ...rest, messages: [...rest.messages, ...messages.slice(end)] };
}
