import { isRemoveMessage, rawToolCallIdOf, roleOf, type ToolCallRef } from "../messages/message-view.js";
import { patternOf, type PatternId, type Repair } from "./patterns.js";
import { cleanReply, type CleanedReply, type ReplyPlace } from "./reply-cleaning.js";
import { messageRefs } from "./report.js";
import { isSyntheticMessage } from "./synthetic.js";
import { isEmptyReply } from "./well-formed.js";

/** A result from the input assigned to its call: the message and its position in the input. */
export interface KeptResult {
  message: unknown;
  index: number;
}

/** A result the repair inserts for an unanswered call. */
export interface InsertedResult {
  message: unknown;
  /** The pattern it repairs (B, B2, B3 or N). */
  code: PatternId;
  /** For a recovered result inserted as a copy under a new call id: the stored one. */
  original?: unknown;
}

/** The answer a call goes out with. */
export type ToolResult = KeptResult | InsertedResult;

/** An AIMessage with tool calls and the result found in the input for each call (`undefined` where none was). */
export interface Turn {
  /** The AIMessage, or its copy without stream leftovers (see `cleanReplies`). */
  ai: unknown;
  index: number;
  calls: readonly ToolCallRef[];
  /** The id each call goes out with, when some call is renamed (see `planCallIds`); else the calls keep theirs. */
  renamed: readonly string[] | undefined;
  results: (KeptResult | undefined)[];
}

/**
 * A turn that gathers an AIMessage with its results, or the index of any
 * other message (an index, not a wrapper object: a repair allocates per turn, not per message).
 */
export type Unit = { turn: Turn } | number;

function removal(code: PatternId, message: unknown, index: number): Repair {
  return { ...patternOf(code), action: "removed", index, message, ...messageRefs(message) };
}

/** The id the call in `slot` of `turn` goes out with. */
export const idOut = (turn: Turn, slot: number): string => turn.renamed?.[slot] ?? turn.calls[slot]!.id;

/**
 * The slot of `turn` that a result answering the stored call id `id` fills: the first unanswered call
 * with that id, else one held by a placeholder (which it replaces), else -1. Calls of one turn may share
 * an id. A number, not an object: this runs for every ToolMessage of a rebuild.
 */
function slotFor(turn: Turn, id: string, message: unknown): number {
  const { calls, results } = turn;
  for (let slot = 0; slot < calls.length; slot++)
    if (calls[slot]!.id === id && results[slot] === undefined) return slot;
  if (isSyntheticMessage(message)) return -1;
  for (let slot = 0; slot < calls.length; slot++) {
    if (calls[slot]!.id === id && isSyntheticMessage(results[slot]!.message)) return slot;
  }
  return -1;
}

/**
 * Splits `messages[0, end)` into units, assigning every ToolMessage to the call
 * it answers: the nearest earlier AIMessage that declared its `tool_call_id`
 * (providers may reuse ids across turns). `calls[i]` holds the calls of the
 * AIMessage at `i` (`toolCallsOf`), `ids` the id each goes out with.
 *
 * - Pattern D: a ToolMessage whose call no earlier AIMessage made is removed.
 * - Pattern F: a second result for a call is removed; a real result wins over
 *   a sanitizer placeholder, otherwise the first one stays.
 * - Pattern H: an AIMessage with neither content nor tool calls is removed.
 * - Pattern L: a RemoveMessage left in the list is removed.
 * - Patterns M, P, Q, R, S, T, U, V: an AIMessage the reply rules change is taken as their copy, recorded in
 *   `cleaned` (`place` says where it stands); one they leave with nothing to send is removed, under each of them.
 *
 * Removed messages are reported whole in `repairs`.
 */
export function segment(
  messages: readonly unknown[],
  end: number,
  calls: readonly (readonly ToolCallRef[] | undefined)[],
  renamed: ReadonlyMap<number, readonly string[]>,
  place: ReplyPlace,
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
      const clean = cleanReply(message, place);
      if (clean !== undefined) cleaned.set(index, clean);
      const list = calls[index] ?? [];
      if (isEmptyReply(clean?.message ?? message, list.length)) {
        // Removed by the rules that left it with nothing to send, or by H when it was empty as stored.
        const emptied = clean !== undefined && !isEmptyReply(message, list.length);
        for (const code of emptied ? clean.codes : (["H"] as const)) repairs.push(removal(code, message, index));
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
        repairs.push(removal("D", message, index));
        continue;
      }
      const slot = slotFor(owner, id, message);
      if (slot === -1) {
        repairs.push(removal("F", message, index));
        continue;
      }
      const replaced = owner.results[slot];
      if (replaced !== undefined) repairs.push(removal("F", replaced.message, replaced.index));
      owner.results[slot] = { message, index };
    } else if (role === "other" && isRemoveMessage(message)) {
      repairs.push(removal("L", message, index));
    } else {
      units.push(index);
    }
  }
  return units;
}
