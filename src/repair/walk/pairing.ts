/**
 * Which call a ToolMessage answers, in the clean check and the rebuild alike: a call of the nearest earlier
 * AIMessage that declared its `tool_call_id` (providers may reuse ids across turns; the rebuild keeps that owner per
 * id, while in a history the clean check passes every id is unique, so the owner is the open turn), in the first
 * slot from `from` on that holds the id. @internal
 */
import { rawCallId } from "../../messages/message-view.js";

/** The first slot of `calls` from `from` on whose call has `id`; -1 for none. */
export function slotWithId(calls: readonly unknown[], id: string, from: number): number {
  for (let slot = from; slot < calls.length; slot++) if (rawCallId(calls[slot]) === id) return slot;
  return -1;
}
