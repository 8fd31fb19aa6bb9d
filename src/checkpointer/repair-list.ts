import { roleOf } from "../messages/message-view.js";
import { repairWith, type RepairResult, type TailKind } from "../repair/repair-messages.js";
import type { ResolvedRepairSettings } from "../repair/settings.js";
import { findTailStart } from "../repair/walk/tail.js";

/**
 * `humanInTheLoopMiddleware` guards the calls of the last AIMessage, whatever follows: where user turns follow it with
 * a call still unanswered, they start here (docs/tail-policy.md).
 */
function guardedCallEnd(messages: readonly unknown[]): number | undefined {
  const turns = findTailStart(messages);
  if (turns === 0 || turns === messages.length || roleOf(messages[turns]) !== "human") return undefined;
  const ai = findTailStart(messages, turns);
  if (ai === turns) return undefined;
  const calls = (messages[ai] as { tool_calls: unknown[] }).tool_calls.length;
  return turns - ai - 1 < calls ? turns : undefined;
}

/** At a pending `interrupt()`, a preserved tail reaches back to the call the interrupt may guard. */
export function repairList(
  messages: readonly unknown[],
  settings: ResolvedRepairSettings,
  tail: TailKind,
  recoveredResults: readonly unknown[] | undefined,
  interrupted: boolean,
): RepairResult {
  const end = tail === "resumable" && interrupted ? guardedCallEnd(messages) : undefined;
  if (end === undefined) return repairWith(messages, settings, tail, recoveredResults);
  // The user turns go back after the repaired rest, whose own tail is the guarded AIMessage and its results.
  const rest = repairWith(messages.slice(0, end), settings, "resumable");
  if (rest.repairs.length === 0) return { messages: messages as unknown[], repairs: [], usedRecovered: [] };
  return { ...rest, messages: [...rest.messages, ...messages.slice(end)] };
}
