import { isValidCallId, rawToolCallIdOf, roleOf, type ToolCallRef } from "../../messages/message-view.js";
import { definePattern } from "../pattern.js";
import { anchorOf } from "../synthetic.js";
import { addValidId, hashText, resetIds } from "../unique-ids.js";

export const invalidCallId = definePattern({
  code: "I",
  kind: "invalid-call-id",
  summary: "a call id providers reject, or one reused",
  shape: "call id providers reject: empty, blank, not [A-Za-z0-9_-], over 40 characters, or reused by a later call",
  repair:
    "give the call and its results one deterministic replacement id (copies); of calls sharing an id the last keeps it",
  applies: ["anywhere"],
});

const NO_RENAMES: ReadonlyMap<number, string[]> = new Map();

/** Whether every call in the history has a valid id no other call uses: the usual case, checked allocation-free. */
function idsAllKept(calls: readonly (readonly ToolCallRef[] | undefined)[]): boolean {
  resetIds();
  for (let i = 0; i < calls.length; i++) {
    const list = calls[i];
    if (list !== undefined) for (let k = 0; k < list.length; k++) if (!addValidId(list[k]!.id)) return false;
  }
  return true;
}

/**
 * The ids the calls of an AIMessage before `tailStart` go out with, by message index, for the
 * messages where some call is renamed (every other call keeps its id). A call
 * keeps its id when every provider accepts it (`isValidCallId`) and no later call reuses it;
 * otherwise it gets a deterministic replacement, which its results take too. Of calls sharing an
 * id the last keeps it: that is the one a resumed run may still answer (ToolNode writes results
 * under the id it was given). Calls in the tail are never renamed. Anthropic's `tool_use.id` must match
 * `^[a-zA-Z0-9_-]+$`; OpenAI's ids are at most 40 characters; an id two calls share pairs results with the wrong call.
 * @internal
 */
export function planCallIds(
  messages: readonly unknown[],
  calls: readonly (readonly ToolCallRef[] | undefined)[],
  tailStart: number,
): ReadonlyMap<number, string[]> {
  if (idsAllKept(calls)) return NO_RENAMES;
  // Calls are numbered in history order (small integers: no string or heap number per call); each
  // valid id maps to the number of the last call that uses it.
  const lastOwner = new Map<string, number>();
  let n = 0;
  for (let i = 0; i < messages.length; i++) {
    const list = calls[i];
    if (list === undefined) continue;
    for (const call of list) {
      if (isValidCallId(call.id)) lastOwner.set(call.id, n);
      n++;
    }
  }
  // Every id in the history, which a replacement must not take; needed only once a call is renamed.
  let taken: Set<string> | undefined;
  const plan = new Map<number, string[]>();
  n = 0;
  for (let i = 0; i < tailStart; i++) {
    const list = calls[i];
    if (list === undefined) continue;
    const first = n;
    n += list.length;
    let slot = 0;
    while (slot < list.length && keepsId(list[slot]!.id, first + slot, lastOwner)) slot++;
    if (slot === list.length) continue;
    plan.set(
      i,
      list.map((call, k) => {
        if (keepsId(call.id, first + k, lastOwner)) return call.id;
        taken ??= idsIn(messages, calls);
        return replacementId(`${anchorOf(messages[i], i)}\n${k}\n${call.id}`, taken);
      }),
    );
  }
  return plan;
}

/** Whether call number `n`, with `id`, keeps it: the id is valid and no later call uses it. */
function keepsId(id: string, n: number, lastOwner: ReadonlyMap<string, number>): boolean {
  return isValidCallId(id) && lastOwner.get(id) === n;
}

/** Every call id and tool_call_id in `messages`. */
function idsIn(messages: readonly unknown[], calls: readonly (readonly ToolCallRef[] | undefined)[]): Set<string> {
  const ids = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    if (roleOf(messages[i]) === "tool") ids.add(rawToolCallIdOf(messages[i]));
    calls[i]?.forEach((call) => ids.add(call.id));
  }
  return ids;
}

/** A valid call id derived from `seed` alone, made unique against `taken` (and added to it). */
function replacementId(seed: string, taken: Set<string>): string {
  const base = `sanitizer_${hashText(seed).toString(36)}${hashText(seed, 0x9747b28c).toString(36)}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}
