import { isValidCallId, rawToolCallIdOf, roleOf, type ToolCallRef } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";
import { idOrPosition } from "../synthetic/inserted-messages.js";
import { addValidId, hashText, resetIds } from "../walk/unique-ids.js";

export const invalidCallId = definePattern({
  code: "I",
  kind: "invalid-call-id",
  summary: "a call id providers reject, or one reused",
  shape: "call id providers reject: empty, blank, not [A-Za-z0-9_-], over 40 characters, or reused by a later call",
  repair:
    "give the call and its results one deterministic replacement id (copies); of calls sharing an id the last keeps it",
  applies: ["anywhere"],
  pairing: { step: "ids", keeps: addValidId, plan: planCallIds },
});

const NO_RENAMES: ReadonlyMap<number, string[]> = new Map();

/** The usual case, checked allocation-free. */
function idsAllKept(calls: readonly (readonly ToolCallRef[] | undefined)[]): boolean {
  resetIds();
  for (let i = 0; i < calls.length; i++) {
    const list = calls[i];
    if (list !== undefined) for (let k = 0; k < list.length; k++) if (!addValidId(list[k]!.id)) return false;
  }
  return true;
}

/**
 * Anthropic's `tool_use.id` must match `^[a-zA-Z0-9_-]+$`, OpenAI's ids are at most 40 characters, and an id two
 * calls share pairs results with the wrong call. Of calls sharing an id the last keeps it (a resumed run may still
 * answer it); tail calls are never renamed.
 */
function planCallIds(
  messages: readonly unknown[],
  calls: readonly (readonly ToolCallRef[] | undefined)[],
  tailStart: number,
): ReadonlyMap<number, string[]> {
  if (idsAllKept(calls)) return NO_RENAMES;
  // Small integers per call, no string or heap number; each valid id maps to its last call.
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
  // A replacement must not take any id in the history; needed only once a call is renamed.
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
        return replacementId(`${idOrPosition(messages[i], i)}\n${k}\n${call.id}`, taken);
      }),
    );
  }
  return plan;
}

function keepsId(id: string, n: number, lastOwner: ReadonlyMap<string, number>): boolean {
  return isValidCallId(id) && lastOwner.get(id) === n;
}

function idsIn(messages: readonly unknown[], calls: readonly (readonly ToolCallRef[] | undefined)[]): Set<string> {
  const ids = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    if (roleOf(messages[i]) === "tool") ids.add(rawToolCallIdOf(messages[i]));
    calls[i]?.forEach((call) => ids.add(call.id));
  }
  return ids;
}

/** Derived from `seed` alone, unique against `taken` (and added to it). */
function replacementId(seed: string, taken: Set<string>): string {
  const base = `sanitizer_${hashText(seed).toString(36)}${hashText(seed, 0x9747b28c).toString(36)}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}
