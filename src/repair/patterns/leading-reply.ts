import { definePattern } from "../rules/define-pattern.js";
import { HumanMessage } from "@langchain/core/messages";
import { SYNTHETIC_ID_PREFIX } from "../synthetic/inserted-messages.js";

export const leadingReply = definePattern({
  code: "J",
  kind: "leading-reply",
  summary: "a history that starts with a reply",
  shape: "the history starts (after any SystemMessage) with an AIMessage: older messages trimmed, or a greeting",
  repair: "insert a marker HumanMessage before it",
  applies: ["leftovers", "provider"],
  // Anthropic: "first message must use the user role"; Gemini: "First content should be with role 'user'"; Bedrock:
  // "A conversation must start with a user message".
  boundary: {
    after: "none",
    before: "ai",
    insert: (around, texts) =>
      new HumanMessage({ id: `${SYNTHETIC_ID_PREFIX}opening-${around.next}`, content: texts.missingOpening }),
  },
});
