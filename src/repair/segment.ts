import { rawToolCallIdOf, roleOf, type ToolCallRef } from "../messages/message-view.js";
import type { PatternUnit, ReplyPlace } from "./pattern.js";
import type { Repair } from "./patterns.js";
import { orphanToolResult } from "./patterns/orphan-tool-result.js";
import { duplicateToolResult, slotFor } from "./patterns/duplicate-tool-result.js";
import { UNITS } from "./patterns/index.js";
import { cleanReply, type CleanedReply } from "./reply-cleaning.js";
import { reportOf } from "./report.js";
import { removalOf, type RuleSet } from "./rule-set.js";
import type { KeptResult, Turn } from "./turn.js";

/**
 * A turn that gathers an AIMessage with its results, or the index of any
 * other message (an index, not a wrapper object: a repair allocates per turn, not per message).
 */
export type Unit = { turn: Turn } | number;

function removal(unit: PatternUnit, message: unknown, index: number): Repair {
  return reportOf(unit, "removed", index, message);
}

/**
 * Splits `messages[0, end)` into units, assigning every ToolMessage to the call
 * it answers: the nearest earlier AIMessage that declared its `tool_call_id`
 * (providers may reuse ids across turns). `calls[i]` holds the calls of the
 * AIMessage at `i` (`toolCallsOf`), `renamed` the ids renamed ones go out with.
 *
 * - A ToolMessage whose call no earlier AIMessage made is removed (D); a second result for a call is removed (F).
 * - An AIMessage the reply rules change is taken as their copy, recorded in `cleaned` (`place` says where it
 *   stands); one they leave with nothing to send is removed, under each of them.
 * - A message a removal rule reads is removed (H, L).
 *
 * Removed messages are reported whole in `repairs`.
 */
export function segment(
  messages: readonly unknown[],
  end: number,
  calls: readonly (readonly ToolCallRef[] | undefined)[],
  renamed: ReadonlyMap<number, readonly string[]>,
  place: ReplyPlace,
  rules: RuleSet,
  cleaned: Map<number, CleanedReply>,
  repairs: Repair[],
): Unit[] {
  const units: Unit[] = [];
  // The turn that owns each stored call id (a call without id is answered under "").
  const owners = new Map<string, Turn>();
  for (let index = 0; index < end; index++) {
    const message = messages[index];
    const role = roleOf(message);
    if (role === "ai") {
      place.index = index;
      const clean = cleanReply(message, place, rules);
      if (clean !== undefined) cleaned.set(index, clean);
      const list = calls[index] ?? [];
      const removed = removalOf(rules, role, clean?.message ?? message, list.length);
      if (removed !== undefined) {
        // Removed by the rules that left it with nothing to send, or by the removal rule as it was stored.
        const emptied = clean !== undefined && removalOf(rules, role, message, list.length) === undefined;
        const by = emptied ? clean.codes.map((code) => UNITS[code]) : [removed];
        for (const unit of by) repairs.push(removal(unit, message, index));
        continue;
      }
      if (list.length === 0) {
        units.push(index);
        continue;
      }
      const results = new Array<KeptResult | undefined>(list.length).fill(undefined);
      const ai = clean?.message ?? message;
      const turn: Turn = { ai, index, calls: list, renamed: renamed.get(index), results };
      // This turn now owns its ids: a result answers the nearest earlier call with its id.
      for (let slot = 0; slot < list.length; slot++) owners.set(list[slot]!.id, turn);
      units.push({ turn });
    } else if (role === "tool") {
      const id = rawToolCallIdOf(message);
      const owner = owners.get(id);
      if (owner === undefined) {
        repairs.push(removal(orphanToolResult, message, index));
        continue;
      }
      const slot = slotFor(owner, id, message);
      if (slot === -1) {
        repairs.push(removal(duplicateToolResult, message, index));
        continue;
      }
      const replaced = owner.results[slot];
      if (replaced !== undefined) repairs.push(removal(duplicateToolResult, replaced.message, replaced.index));
      owner.results[slot] = { message, index };
    } else {
      const removed = removalOf(rules, role, message, 0);
      if (removed !== undefined) repairs.push(removal(removed, message, index));
      else units.push(index);
    }
  }
  return units;
}
