import { rawCallId } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";

/**
 * Its rule is the pairing itself: a ToolMessage answers a call of the nearest earlier AIMessage that declared its
 * `tool_call_id` (providers may reuse ids across turns; the rebuild keeps that owner per id, while in a history the
 * clean check passes every id is unique, so the owner is the open turn), in the first slot from `from` on that holds
 * the id. One that none declared is removed. OpenAI: "messages with role 'tool' must be a response to a preceding
 * message with 'tool_calls'"; Anthropic: "unexpected tool_use_id found in tool_result blocks".
 */
export const orphanToolResult = definePattern({
  code: "D",
  kind: "orphan-tool-result",
  summary: "a tool result whose call no earlier reply made",
  shape: "orphan ToolMessage: no earlier AIMessage made its call",
  repair: "remove it (it is reported whole)",
  applies: ["anywhere"],
  pairing: {
    step: "owner",
    slotWithId(calls, id, from) {
      for (let slot = from; slot < calls.length; slot++) if (rawCallId(calls[slot]) === id) return slot;
      return -1;
    },
  },
});
