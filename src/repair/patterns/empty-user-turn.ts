import { hasEmptyContent } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";

export const emptyUserTurn = definePattern({
  code: "X",
  kind: "empty-user-turn",
  summary: "an empty user turn",
  shape: "a HumanMessage with no content (an empty send): Anthropic, Gemini and Bedrock reject it",
  repair: "rewrite a copy with a marker text",
  applies: ["provider"],
  // Anthropic: "all messages must have non-empty content"; Gemini: "contents.parts must not be empty".
  message: { role: "human", finds: hasEmptyContent, text: "emptyMessage" },
});
