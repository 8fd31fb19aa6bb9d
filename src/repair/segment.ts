import { rawToolCallIdOf, roleOf, type ToolCallRef } from "../messages/message-view.js";
import { patternOf, type PatternId, type Repair } from "./patterns.js";
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

/** The slots of a turn's calls, by stored id (a call without id is answered under ""). */
interface Owner {
  turn: Turn;
  slots: number[];
}

/** The slot a result for `owner` fills: the first unanswered one, else one held by a placeholder, else none. */
function slotFor(owner: Owner, message: unknown): { slot: number; replaces?: KeptResult } | undefined {
  const { turn, slots } = owner;
  for (const slot of slots) if (turn.results[slot] === undefined) return { slot };
  if (isSyntheticMessage(message)) return undefined;
  for (const slot of slots) {
    const kept = turn.results[slot]!;
    if (isSyntheticMessage(kept.message)) return { slot, replaces: kept };
  }
  return undefined;
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
 *
 * Removed messages are reported whole in `repairs`.
 */
export function segment(
  messages: readonly unknown[],
  end: number,
  calls: readonly (readonly ToolCallRef[] | undefined)[],
  renamed: ReadonlyMap<number, readonly string[]>,
  repairs: Repair[],
): Unit[] {
  const units: Unit[] = [];
  const owners = new Map<string, Owner>();
  for (let index = 0; index < end; index++) {
    const message = messages[index];
    const role = roleOf(message);
    if (role === "ai") {
      const list = calls[index] ?? [];
      if (isEmptyReply(message, list.length)) {
        repairs.push(removal("H", message, index));
        continue;
      }
      if (list.length === 0) {
        units.push(index);
        continue;
      }
      const results = new Array<KeptResult | undefined>(list.length).fill(undefined);
      const turn: Turn = { ai: message, index, calls: list, renamed: renamed.get(index), results };
      // This turn now owns its ids; calls of one turn sharing an id gather their slots in one owner.
      for (let slot = 0; slot < list.length; slot++) {
        const id = list[slot]!.id;
        const owner = owners.get(id);
        if (owner !== undefined && owner.turn === turn) owner.slots.push(slot);
        else owners.set(id, { turn, slots: [slot] });
      }
      units.push({ turn });
    } else if (role === "tool") {
      const owner = owners.get(rawToolCallIdOf(message));
      if (owner === undefined) {
        repairs.push(removal("D", message, index));
        continue;
      }
      const target = slotFor(owner, message);
      if (target === undefined) {
        repairs.push(removal("F", message, index));
        continue;
      }
      if (target.replaces) repairs.push(removal("F", target.replaces.message, target.replaces.index));
      owner.turn.results[target.slot] = { message, index };
    } else {
      units.push(index);
    }
  }
  return units;
}
