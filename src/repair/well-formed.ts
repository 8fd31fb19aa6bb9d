import {
  type MessageRole,
  hasHiddenCalls,
  hasRunnableCalls,
  rawCallId,
  rawToolCallIdOf,
  roleOf,
  toolCallsOf,
} from "../messages/message-view.js";
import { baseModel } from "../messages/anthropic-blocks.js";
import type { EndKind } from "./emit.js";
import type { ReplyPlace } from "./pattern.js";
import { needsCleaning } from "./reply-cleaning.js";
import { boundaryBreak, messageRulesOf, ofRole, removalAmong, TURN, type RuleSet, type TurnCode } from "./rule-set.js";
import { isSystemBridge } from "./synthetic.js";
import { addId, addValidId, resetIds } from "./unique-ids.js";

/** How the engine reads a history: the rules that apply, the model it goes to, and how its end is closed. */
export interface Closing {
  rules: RuleSet;
  /** The model the history goes to, when known. */
  model: string | undefined;
  /** Whether the history goes to a Claude model (pattern R on a thinking block without a signature). */
  toClaude: boolean;
  /** Whether the Responses API keeps the responses the history replays; unknown when undefined. */
  store: boolean | undefined;
  end: EndKind;
}

/**
 * Where each reply of `messages` stands for the reply rules; `index` is set per reply. The current turn (after the
 * last HumanMessage) is continued only when no new input follows: the end is open, or a tail is kept for a resume.
 */
export function replyPlace(
  messages: readonly unknown[],
  tailStart: number,
  { model, toClaude, store, end }: Closing,
): ReplyPlace {
  let currentTurn = messages.length;
  if (end === "open" || tailStart < messages.length) {
    currentTurn = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (roleOf(messages[i]) === "human") {
        currentTurn = i + 1;
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
    openEnd: end === "open",
    currentTurn,
    renamed: undefined,
  };
}

const NO_CALLS: readonly unknown[] = [];

/**
 * Whether the calls of the AIMessage at the tail start may keep their ids: no call before the
 * tail shares one. Tail calls are read with `toolCallsOf` (the only allocation, and only when a
 * tail with calls is preserved).
 */
function tailIdsFree(messages: readonly unknown[], tailStart: number): boolean {
  if (tailStart >= messages.length || roleOf(messages[tailStart]) !== "ai") return true;
  const calls = toolCallsOf(messages[tailStart]);
  for (let k = 0; k < calls.length; k++) if (!addId(calls[k]!.id, true)) return false;
  return true;
}

/**
 * Whether a history that must be closed at its end (`closeEnd`) is open there: it ends in a HumanMessage,
 * a tool result, or an AIMessage with calls, so {@link isWellFormed} is false whatever comes before.
 * A cancelled run's history ends so; the check spares the rebuild a walk over the whole list.
 */
export function endsOpen(messages: readonly unknown[]): boolean {
  const last = messages[messages.length - 1];
  const role = roleOf(last);
  return role === "human" || role === "tool" || (role === "ai" && hasRunnableCalls(last));
}

/** Whether a removal or message rule reads `message` (of a role other than a reply's), after `prev`. */
function readByRules(rules: RuleSet, role: MessageRole, message: unknown, prev: TurnCode): boolean {
  return (
    removalAmong(ofRole(rules.removals, role), message, 0) !== undefined ||
    messageRulesOf(rules, role, message, prev).length > 0
  );
}

/**
 * Whether the rebuild would change nothing in `messages`: `messages[0, tailStart)` breaks no rule that applies, nor
 * does the boundary with what follows it (the tail's first message, or, when the end is closed, the new HumanMessage
 * the next turn will append). It reads the same rules as the rebuild, through the same lookups (`boundaryBreak`,
 * `messageRulesOf`, `removalAmong`, `needsCleaning`), and the pairing the rebuild makes: each call's result right
 * after its AIMessage, in call order (B, D, E, F), every call in `tool_calls` (G), every id valid and unique (I).
 * A property test holds it to the rebuild on generated histories.
 *
 * This is the clean path of every read, so it allocates nothing in the usual case: calls are read in place from
 * `tool_calls`, and ids go into a set kept between calls (`addValidId`).
 */
export function isWellFormed(messages: readonly unknown[], tailStart: number, closing: Closing): boolean {
  const { rules, end } = closing;
  const table = rules.boundaries;
  const { reads } = rules;
  const readsTool = reads.tool;
  const { replyRemoved } = rules;
  let prev: TurnCode = TURN.none;
  let calls: readonly unknown[] = NO_CALLS;
  let answered = 0;
  let place: ReplyPlace | undefined;
  resetIds();
  for (let i = 0; i < tailStart; i++) {
    const message = messages[i];
    const role = roleOf(message);
    if (answered < calls.length) {
      // The results come right after their AIMessage, one per call, in call order.
      if (role !== "tool" || rawToolCallIdOf(message) !== rawCallId(calls[answered])) return false;
      if (readsTool && messageRulesOf(rules, role, message, prev).length > 0) return false;
      answered++;
      continue;
    }
    if (role === "tool") return false; // a result with no call left to answer
    if (role === "ai") {
      if (boundaryBreak(table.ai, prev) !== undefined) return false;
      const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
      calls = Array.isArray(toolCalls) ? toolCalls : NO_CALLS;
      answered = 0;
      if (hasHiddenCalls(message)) return false;
      if (replyRemoved !== undefined && replyRemoved(message, calls.length)) return false;
      place ??= replyPlace(messages, tailStart, closing);
      place.index = i;
      if (needsCleaning(message, place, rules)) return false;
      for (let k = 0; k < calls.length; k++) {
        const call = calls[k];
        if (typeof call !== "object" || call === null) return false;
        if (!addValidId(rawCallId(call))) return false;
      }
      prev = calls.length > 0 ? TURN.tools : TURN.ai;
      continue;
    }
    if (ofRole(reads, role) && readByRules(rules, role, message, prev)) return false;
    if (role === "human") {
      if (boundaryBreak(table.human, prev) !== undefined) return false;
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
  if (end === "open") return boundaryBreak(table["request-end"], prev, messages[tailStart - 1]) === undefined;
  return boundaryBreak((end === "leftovers" ? rules.leftovers : table).human, prev) === undefined;
}
