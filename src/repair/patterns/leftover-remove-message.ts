import { isRemoveMessage } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";

export const leftoverRemoveMessage = definePattern({
  code: "L",
  kind: "leftover-remove-message",
  summary: "a RemoveMessage left in the list",
  shape: "a RemoveMessage left in the stored list (a reducer that does not apply removals), which no converter sends",
  repair: "remove it (it is reported whole)",
  applies: ["anywhere"],
  keepsNeighbours: true,
  removal: { role: "other", removes: isRemoveMessage },
});
