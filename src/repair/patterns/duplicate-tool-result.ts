import { definePattern } from "../rules/define-pattern.js";
import { isSyntheticMessage } from "../synthetic/inserted-messages.js";

/**
 * Its rule: the slot of `turn` that a result answering the stored call id `id` fills is the first unanswered call with
 * that id, else one held by a placeholder (which it replaces), else -1: a duplicate, removed. Anthropic: "each tool_use
 * must have a single result". Calls of one turn may share an id. A number, not an object: it runs per ToolMessage.
 */
export const duplicateToolResult = definePattern({
  code: "F",
  kind: "duplicate-tool-result",
  summary: "two results for one call",
  shape: "two results for one tool_call_id",
  repair: "keep one (a real result over a sanitizer placeholder, else the first) and remove the other",
  applies: ["anywhere"],
  keepsNeighbours: true,
  pairing: {
    step: "slot",
    slotFor({ calls, results }, id, message, slotWithId) {
      for (let slot = slotWithId(calls, id, 0); slot !== -1; slot = slotWithId(calls, id, slot + 1))
        if (results[slot] === undefined) return slot;
      if (isSyntheticMessage(message)) return -1;
      for (let slot = slotWithId(calls, id, 0); slot !== -1; slot = slotWithId(calls, id, slot + 1))
        if (isSyntheticMessage(results[slot]!.message)) return slot;
      return -1;
    },
  },
});
