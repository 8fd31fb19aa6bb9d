import { hasLoneReasoningItem, isLoneReasoningItem } from "../../messages/responses-items.js";
import { definePattern } from "../rules/define-pattern.js";
import { withoutOutputItems } from "../copies/reply-copies.js";

export const loneReasoningItem = definePattern({
  code: "P",
  kind: "lone-reasoning-item",
  summary: "a Responses reasoning item without the item that followed it",
  shape:
    "a Responses reasoning item stored without the item that followed it (a partial reply saved on stop), " +
    "which the Responses API rejects",
  repair: "rewrite a copy of the stored output without it",
  applies: ["anywhere"],
  reply: {
    // After U and V: a reasoning item whose hosted-tool item they dropped is left lone.
    readsParts: ["output"],
    finds: hasLoneReasoningItem,
    fix: (m) => withoutOutputItems(m, isLoneReasoningItem),
  },
});
