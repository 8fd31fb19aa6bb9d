import { rawToolCallIdOf, roleOf, type ToolCallRef } from "../../messages/message-view.js";
import type { PatternUnit, ReplyContext } from "../rules/define-pattern.js";
import type { Repair } from "../report/catalog.js";
import { copyReply, type ReplyCopy } from "./reply-rules.js";
import { reportOf } from "../report/report-of.js";
import { removalOf, type RuleSet } from "../rules/rule-set.js";
import type { KeptResult, Turn } from "./turn.js";

/**
 * A turn (an AIMessage with calls, and the results found for them), or the position of a message of no turn: an
 * index, not a wrapper object, so a repair allocates per turn, not per message.
 */
export type Segment = { turn: Turn } | number;

function removal(unit: PatternUnit, message: unknown, index: number): Repair {
  return reportOf(unit, "removed", index, message);
}

/**
 * Each ToolMessage goes to the call the owner rule names, its owner kept per id as the walk meets each AIMessage.
 * What the input, owner and slot rules take out (an echo, an orphan, a second result) and what a removal rule reads
 * are removed, reported whole; replies the reply rules change are taken as their copies, in `replyCopies`.
 */
export function segment(
  messages: readonly unknown[],
  end: number,
  inputStart: number,
  calls: readonly (readonly ToolCallRef[] | undefined)[],
  renamed: ReadonlyMap<number, readonly string[]>,
  replies: ReplyContext,
  rules: RuleSet,
  replyCopies: Map<number, ReplyCopy>,
  repairs: Repair[],
): Segment[] {
  const segments: Segment[] = [];
  const { input, owner: ownerRule, slot: slotRule } = rules.pairing;
  const { removes } = input.pairing;
  const { slotWithId } = ownerRule.pairing;
  const { slotFor } = slotRule.pairing;
  // A call without id is answered under "".
  const owners = new Map<string, Turn>();
  for (let index = 0; index < end; index++) {
    const message = messages[index];
    if (removes(message, index, inputStart)) {
      repairs.push(removal(input, message, index));
      continue;
    }
    const role = roleOf(message);
    if (role === "ai") {
      replies.index = index;
      const copy = copyReply(message, replies, rules);
      if (copy !== undefined) replyCopies.set(index, copy);
      const list = calls[index] ?? [];
      const removed = removalOf(rules, role, copy?.message ?? message, list.length);
      if (removed !== undefined) {
        const emptied = copy !== undefined && removalOf(rules, role, message, list.length) === undefined;
        const by = emptied ? copy.units : [removed];
        for (const unit of by) repairs.push(removal(unit, message, index));
        continue;
      }
      if (list.length === 0) {
        segments.push(index);
        continue;
      }
      const results = new Array<KeptResult | undefined>(list.length).fill(undefined);
      const ai = copy?.message ?? message;
      const turn: Turn = { ai, index, calls: list, renamed: renamed.get(index), results };
      for (let slot = 0; slot < list.length; slot++) owners.set(list[slot]!.id, turn);
      segments.push({ turn });
    } else if (role === "tool") {
      const id = rawToolCallIdOf(message);
      const owner = owners.get(id);
      if (owner === undefined) {
        repairs.push(removal(ownerRule, message, index));
        continue;
      }
      const slot = slotFor(owner, id, message, slotWithId);
      if (slot === -1) {
        repairs.push(removal(slotRule, message, index));
        continue;
      }
      const replaced = owner.results[slot];
      if (replaced !== undefined) repairs.push(removal(slotRule, replaced.message, replaced.index));
      owner.results[slot] = { message, index };
    } else {
      const removed = removalOf(rules, role, message, 0);
      if (removed !== undefined) repairs.push(removal(removed, message, index));
      else segments.push(index);
    }
  }
  return segments;
}
