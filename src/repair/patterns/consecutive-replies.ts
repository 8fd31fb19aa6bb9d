import { definePattern } from "../rules/define-pattern.js";
import { HumanMessage } from "@langchain/core/messages";
import { SYNTHETIC_ID_PREFIX } from "../synthetic/inserted-messages.js";

export const consecutiveReplies = definePattern({
  code: "K",
  kind: "consecutive-replies",
  summary: "two replies in a row",
  shape:
    "an AIMessage right after an AIMessage without tool calls: a partial answer kept on stop, then a regenerated " +
    "one, or two agents' replies (a supervisor's handoff back)",
  repair: "insert a marker HumanMessage between them; both replies stay as stored",
  applies: ["leftovers", "provider"],
  // Anthropic, Gemini and Bedrock: roles alternate. A marker rather than a merge: each reply goes out as stored.
  boundary: {
    after: "ai",
    before: "ai",
    insert: (around, texts) =>
      new HumanMessage({
        id: `${SYNTHETIC_ID_PREFIX}between-${around.lastReply}`,
        content: texts.missingTurnBetweenReplies,
      }),
  },
});
