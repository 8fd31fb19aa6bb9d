/**
 * The reply rules at work (patterns M, P, Q, R, S, T, U, V: see each unit): each rule that applies finds its blocks
 * or items in a reply and writes a copy, in the order of the rules, each on the copy the last one wrote.
 */
import type { PatternId } from "./patterns.js";
import type { ReplyPlace } from "./pattern.js";
import type { RuleSet } from "./rule-set.js";

type Loose = Record<string, unknown>;

/** A stored AIMessage sent as a copy the reply rules wrote, and the patterns that changed it. */
export interface CleanedReply {
  message: unknown;
  codes: PatternId[];
}

/**
 * Whether some reply rule may change `message`, in one pass over what the rules read: a content block one of them
 * reads, or a field or place of the reply. The clean check runs this for every reply of every read; most replies
 * hold nothing any rule reads, and the rules are then skipped.
 */
function mayNeedCleaning(message: unknown, at: ReplyPlace, rules: RuleSet): boolean {
  const m = message as Loose;
  const content = m.content;
  const { blockReaders, replyReaders } = rules;
  if (Array.isArray(content) && blockReaders.length > 0) {
    for (let i = 0; i < content.length; i++) {
      const block = content[i] as Loose | null;
      if (typeof block !== "object" || block === null || typeof block.type !== "string") continue;
      for (let r = 0; r < blockReaders.length; r++) if (blockReaders[r]!.readsBlock!(block, at)) return true;
    }
  }
  for (let r = 0; r < replyReaders.length; r++) if (replyReaders[r]!.readsReply!(m, at)) return true;
  return false;
}

/** Whether some reply rule changes `message`. Allocation-free when none does: the clean check runs it for every reply. */
export function needsCleaning(message: unknown, at: ReplyPlace, rules: RuleSet): boolean {
  if (!mayNeedCleaning(message, at, rules)) return false;
  for (const unit of rules.replies) if (unit.reply.finds(message, at)) return true;
  return false;
}

/** The copy of the AIMessage the reply rules write, or undefined when none changes it. */
export function cleanReply(message: unknown, at: ReplyPlace, rules: RuleSet): CleanedReply | undefined {
  if (!mayNeedCleaning(message, at, rules)) return undefined;
  let current = message;
  let codes: PatternId[] | undefined;
  for (const unit of rules.replies) {
    if (!unit.reply.finds(current, at)) continue;
    current = unit.reply.fix(current, at);
    (codes ??= []).push(unit.code as PatternId);
  }
  return codes === undefined ? undefined : { message: current, codes };
}
