import { definePattern } from "../rules/define-pattern.js";
import { bridgeMessage } from "../synthetic/inserted-messages.js";

export const missingReply = definePattern({
  code: "A",
  kind: "missing-reply",
  summary: "two user turns in a row (one a run never answered)",
  shape:
    "a HumanMessage with no reply before the next one. Leftovers: the user turn a run stopped midway never " +
    "answered (or it ended on), closed when new input follows. Role order: two stored user turns in a row, " +
    "which an app may send on purpose (a document, then the question)",
  repair: "insert a marker AIMessage after it",
  applies: ["leftovers", "provider"],
  // Anthropic: "roles must alternate"; Gemini: "multiturn requests alternate between user and model"; Bedrock: "must
  // alternate between user and assistant roles".
  boundary: {
    after: "human",
    before: "human",
    insert: (around, texts, bridgeRole) => bridgeMessage(around.userTurn, texts.missingReply, bridgeRole),
  },
});
