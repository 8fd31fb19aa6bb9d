import {
  type MessageRole,
  hasRunnableCalls,
  rawCallId,
  rawToolCallIdOf,
  roleOf,
  toolCallsOf,
} from "../../messages/message-view.js";
import { baseModel } from "../../messages/anthropic-blocks.js";
import type { ReplyContext } from "../rules/define-pattern.js";
import { replyNeedsCopy } from "./reply-rules.js";
import {
  boundaryBreak,
  messageRulesOf,
  ofRole,
  removalAmong,
  TURN,
  type RuleSet,
  type TurnCode,
} from "../rules/rule-set.js";
import { isSystemBridge } from "../synthetic/inserted-messages.js";
import type { TailKind } from "./tail.js";
import { addId, resetIds } from "./unique-ids.js";

/** What the clean check and the rebuild both read. */
export interface RepairContext {
  rules: RuleSet;
  model: string | undefined;
  toClaude: boolean;
  /** Unknown when undefined. */
  store: boolean | undefined;
  /** `"resumable"` only where there is a tail to keep; without one the end closes as `"stopped"`. */
  tail: TailKind;
  /** Where the run's input starts; the list's length without input. */
  inputStart: number;
  /** Where input follows a stopped run's leftovers, whose boundary is closed for every provider; -1 for none. */
  leftoversAt: number;
}

/** `index` is set per reply. The last turn is continued only when no new input follows. */
export function replyContext(
  messages: readonly unknown[],
  tailStart: number,
  { model, toClaude, store, tail }: RepairContext,
): ReplyContext {
  let lastTurn = messages.length;
  if (tail === "request" || tailStart < messages.length) {
    lastTurn = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (roleOf(messages[i]) === "human") {
        lastTurn = i + 1;
        break;
      }
    }
  }
  return {
    messages,
    index: 0,
    model: model === undefined ? undefined : baseModel(model),
    toClaude,
    store,
    openTail: tail === "request" || tail === "resumable",
    lastTurn,
    renamed: undefined,
  };
}

const NO_CALLS: readonly unknown[] = [];

/** No call before the tail shares one of its ids. */
function tailIdsFree(messages: readonly unknown[], tailStart: number): boolean {
  if (tailStart >= messages.length || roleOf(messages[tailStart]) !== "ai") return true;
  const calls = toolCallsOf(messages[tailStart]);
  for (let k = 0; k < calls.length; k++) if (!addId(calls[k]!.id, true)) return false;
  return true;
}

/** A cancelled run's end: the check spares the rebuild a walk over the whole list. */
export function tailOpen(messages: readonly unknown[]): boolean {
  const last = messages[messages.length - 1];
  const role = roleOf(last);
  return role === "human" || role === "tool" || (role === "ai" && hasRunnableCalls(last));
}

function readByRules(rules: RuleSet, role: MessageRole, message: unknown, prev: TurnCode): boolean {
  return (
    removalAmong(ofRole(rules.removals, role), message, 0) !== undefined ||
    messageRulesOf(rules, role, message, prev).length > 0
  );
}

/** Whether the rebuild would change nothing; allocation-free, the clean path of every read (docs/internals.md). */
export function isWellFormed(messages: readonly unknown[], tailStart: number, context: RepairContext): boolean {
  const { rules, tail, leftoversAt, inputStart } = context;
  let table = rules.boundaries;
  const { reads } = rules;
  const readsTool = reads.tool;
  const { replyRemoved } = rules;
  // The pairing rules, each read once.
  const { removes } = rules.pairing.input.pairing;
  const { slotWithId } = rules.pairing.owner.pairing;
  const { moved } = rules.pairing.order.pairing;
  const { hides } = rules.pairing.calls.pairing;
  const { keeps } = rules.pairing.ids.pairing;
  let prev: TurnCode = TURN.none;
  let calls: readonly unknown[] = NO_CALLS;
  let answered = 0;
  let replies: ReplyContext | undefined;
  resetIds();
  for (let i = 0; i < tailStart; i++) {
    const message = messages[i];
    const role = roleOf(message);
    // Read at the next boundary, past any results the input holds.
    if (i === leftoversAt) table = rules.leftoverBoundaries;
    if (removes(message, i, inputStart)) return false;
    if (answered < calls.length) {
      // The slot the rebuild gives the result is the open turn's next one: every result is already in its place.
      if (role !== "tool") return false;
      const slot = slotWithId(calls, rawToolCallIdOf(message), answered);
      if (slot === -1 || moved(slot, answered - 1)) return false;
      if (readsTool && messageRulesOf(rules, role, message, prev).length > 0) return false;
      answered++;
      continue;
    }
    if (role === "tool") return false; // a result with no call left to answer
    if (role === "ai") {
      if (boundaryBreak(table.ai, prev) !== undefined) return false;
      table = rules.boundaries;
      const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
      calls = Array.isArray(toolCalls) ? toolCalls : NO_CALLS;
      answered = 0;
      if (hides(message)) return false;
      if (replyRemoved !== undefined && replyRemoved(message, calls.length)) return false;
      replies ??= replyContext(messages, tailStart, context);
      replies.index = i;
      if (replyNeedsCopy(message, replies, rules)) return false;
      for (let k = 0; k < calls.length; k++) {
        const call = calls[k];
        if (typeof call !== "object" || call === null) return false;
        if (!keeps(rawCallId(call))) return false;
      }
      prev = calls.length > 0 ? TURN.tools : TURN.ai;
      continue;
    }
    if (ofRole(reads, role) && readByRules(rules, role, message, prev)) return false;
    if (role === "human") {
      if (boundaryBreak(table.human, prev) !== undefined) return false;
      table = rules.boundaries;
      prev = TURN.human;
    } else if (isSystemBridge(message)) {
      prev = TURN.ai;
    }
  }
  if (answered < calls.length || !tailIdsFree(messages, tailStart)) return false;
  if (tailStart < messages.length) {
    const first = roleOf(messages[tailStart]);
    if (first !== "human" && first !== "ai") return true;
    return boundaryBreak(table[first], prev) === undefined;
  }
  if (tail === "request") return boundaryBreak(table["request"], prev, messages[tailStart - 1]) === undefined;
  return boundaryBreak((tail === "stopped" ? rules.leftoverBoundaries : table).human, prev) === undefined;
}
