import { roleOf, toolCallIdOf, toolCallsOf, type ToolCallRef } from "../messages/message-view.js";
import type { PatternId, Repair } from "./patterns.js";
import { messageRefs } from "./report.js";
import { isSyntheticMessage } from "./synthetic.js";
import { isEmptyReply } from "./well-formed.js";

/** A tool result assigned to its call: from the input (`index` ≥ 0) or inserted by the repair (`index` -1). */
export interface ToolResult {
  message: unknown;
  index: number;
  /** For inserted results: the pattern they repair (B, B2, B3 or N). */
  kind?: PatternId;
}

/** An AIMessage with tool calls and the result found for each call (`undefined` while unanswered). */
export interface Turn {
  ai: unknown;
  index: number;
  calls: readonly ToolCallRef[];
  results: (ToolResult | undefined)[];
}

/**
 * A turn that gathers an AIMessage with its results, or the index of any
 * other message (an index, not a wrapper object: a repair allocates per turn, not per message).
 */
export type Unit = { turn: Turn } | number;

function removal(kind: PatternId, message: unknown, index: number): Repair {
  return { kind, action: "removed", index, message, ...messageRefs(message) };
}

/**
 * Splits `messages[0, end)` into units, assigning every ToolMessage to the call
 * it answers: the nearest earlier AIMessage that declared its `tool_call_id`
 * (providers may reuse ids across turns).
 *
 * - Pattern D: a ToolMessage whose call no earlier AIMessage made is removed.
 * - Pattern F: a second result for a call is removed; a real result wins over
 *   a sanitizer placeholder, otherwise the first one stays.
 * - Pattern H: an AIMessage with neither content nor tool calls is removed.
 *
 * Removed messages are reported whole in `repairs`.
 */
export function segment(messages: readonly unknown[], end: number, repairs: Repair[]): Unit[] {
  const units: Unit[] = [];
  const owners = new Map<string, { turn: Turn; slot: number }>();
  for (let index = 0; index < end; index++) {
    const message = messages[index];
    const role = roleOf(message);
    if (role === "ai") {
      const calls = toolCallsOf(message);
      if (isEmptyReply(message, calls.length)) {
        repairs.push(removal("H", message, index));
        continue;
      }
      if (calls.length === 0) {
        units.push(index);
        continue;
      }
      const turn: Turn = { ai: message, index, calls, results: new Array(calls.length).fill(undefined) };
      calls.forEach((call, slot) => owners.set(call.id, { turn, slot }));
      units.push({ turn });
    } else if (role === "tool") {
      const owner = owners.get(toolCallIdOf(message) ?? "");
      if (owner === undefined) {
        repairs.push(removal("D", message, index));
        continue;
      }
      const kept = owner.turn.results[owner.slot];
      if (kept === undefined) {
        owner.turn.results[owner.slot] = { message, index };
      } else if (isSyntheticMessage(kept.message) && !isSyntheticMessage(message)) {
        repairs.push(removal("F", kept.message, kept.index));
        owner.turn.results[owner.slot] = { message, index };
      } else {
        repairs.push(removal("F", message, index));
      }
    } else {
      units.push(index);
    }
  }
  return units;
}
