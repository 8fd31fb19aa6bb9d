import { isValidCallId, rawToolCallIdOf, roleOf, type ToolCallRef } from "../messages/message-view.js";
import { anchorOf } from "./synthetic.js";
import { hashText } from "./unique-ids.js";

/**
 * The id each call of an AIMessage before `tailStart` goes out with, by message index. A call
 * keeps its id when every provider accepts it (`isValidCallId`) and no later call reuses it;
 * otherwise it gets a deterministic replacement, which its results take too. Of calls sharing an
 * id the last keeps it: that is the one a resumed run may still answer (ToolNode writes results
 * under the id it was given). Calls in the tail are never renamed.
 */
export function planCallIds(
  messages: readonly unknown[],
  calls: readonly (readonly ToolCallRef[] | undefined)[],
  tailStart: number,
): Map<number, string[]> {
  const lastOwner = new Map<string, string>();
  const taken = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    if (roleOf(messages[i]) === "tool") taken.add(rawToolCallIdOf(messages[i]));
    calls[i]?.forEach((call, slot) => {
      taken.add(call.id);
      if (isValidCallId(call.id)) lastOwner.set(call.id, `${i}:${slot}`);
    });
  }
  const plan = new Map<number, string[]>();
  for (let i = 0; i < tailStart; i++) {
    const list = calls[i];
    if (list === undefined) continue;
    plan.set(
      i,
      list.map((call, slot) => {
        if (isValidCallId(call.id) && lastOwner.get(call.id) === `${i}:${slot}`) return call.id;
        return replacementId(`${anchorOf(messages[i], i)}\n${slot}\n${call.id}`, taken);
      }),
    );
  }
  return plan;
}

/** A valid call id derived from `seed` alone, made unique against `taken` (and added to it). */
function replacementId(seed: string, taken: Set<string>): string {
  const base = `sanitizer_${hashText(seed).toString(36)}${hashText(seed, 0x9747b28c).toString(36)}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}
