// Each reply rule that applies writes a copy, in rule order, on the copy the last one wrote (REPLY_ORDER).
import type { ReplyContext, ReplyRule } from "../rules/define-pattern.js";
import { PART_BITS, type ReplyUnit, type RuleSet } from "../rules/rule-set.js";

type Loose = Record<string, unknown>;

/** With the patterns that changed it. */
export interface ReplyCopy {
  message: unknown;
  units: ReplyUnit[];
}

function readsBlock(rules: readonly ReplyRule[], block: Loose, at: ReplyContext): boolean {
  for (let r = 0; r < rules.length; r++) {
    const reads = rules[r]!.readsBlock;
    if (reads === undefined || reads(block, at)) return true;
  }
  return false;
}

/** One pass over what the rules read: most replies hold none of it, and the rules are skipped. */
function mayNeedCleaning(message: unknown, at: ReplyContext, rules: RuleSet): boolean {
  const m = message as Loose;
  const { blockReaders, parts } = rules;
  if ((parts & PART_BITS.tool_call_chunks) !== 0 && Array.isArray(m.tool_call_chunks) && m.tool_call_chunks.length > 0)
    return true;
  if ((parts & PART_BITS.output) !== 0 && Array.isArray((m.response_metadata as Loose | undefined)?.output))
    return true;
  const kwargs = m.additional_kwargs as Loose | undefined;
  if ((parts & PART_BITS.reasoning) !== 0 && kwargs?.reasoning !== undefined) return true;
  if ((parts & PART_BITS.tool_outputs) !== 0 && kwargs?.tool_outputs !== undefined) return true;
  if ((parts & PART_BITS["last-turn"]) !== 0 && at.index >= at.lastTurn) return true;
  const content = m.content;
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as Loose | null;
    if (typeof block !== "object" || block === null || typeof block.type !== "string") continue;
    const readers = blockReaders(block.type);
    if (readers !== undefined && readsBlock(readers, block, at)) return true;
  }
  return false;
}

/** Allocation-free when none does: the clean check runs it for every reply. */
export function replyNeedsCopy(message: unknown, at: ReplyContext, rules: RuleSet): boolean {
  if (!mayNeedCleaning(message, at, rules)) return false;
  for (const unit of rules.replies) if (unit.reply.finds(message, at)) return true;
  return false;
}

/** Undefined when no rule changes it. */
export function copyReply(message: unknown, at: ReplyContext, rules: RuleSet): ReplyCopy | undefined {
  if (!mayNeedCleaning(message, at, rules)) return undefined;
  let current = message;
  let units: ReplyUnit[] | undefined;
  for (const unit of rules.replies) {
    if (!unit.reply.finds(current, at)) continue;
    current = unit.reply.fix(current, at);
    (units ??= []).push(unit);
  }
  return units === undefined ? undefined : { message: current, units };
}
