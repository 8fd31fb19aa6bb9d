import { hasEmptyContent } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";

export const emptyReply = definePattern({
  code: "H",
  kind: "empty-reply",
  summary: "an empty reply",
  shape: "empty AIMessage: no text and no tool calls",
  repair: "remove it (reported whole); if that leaves the turn open at the end, close it with a marker (A or C)",
  applies: ["anywhere"],
  removal: { role: "ai", removes: (message, callCount) => callCount === 0 && hasEmptyContent(message) },
});
