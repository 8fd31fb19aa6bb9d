import { definePattern } from "../rules/define-pattern.js";
import { isSyntheticMessage } from "../synthetic/inserted-messages.js";

export const systemMessageMidHistory = definePattern({
  code: "Y",
  kind: "system-message-mid-history",
  summary: "a SystemMessage mid-history",
  shape:
    "a SystemMessage after the conversation started (a summary, an instruction added mid-run): Anthropic (but " +
    "its newest models), Gemini and Mistral reject it",
  repair: "send a HumanMessage copy of it, with its content and id, in its place",
  applies: ["provider"],
  // Gemini: "System message should be the first one"; Mistral: "Unexpected role 'system' after role 'assistant'".
  // A marker stored as a SystemMessage (`bridgeRole: "system"`) is the app's choice, and stays.
  message: {
    role: "system",
    finds: (message, prev) => prev !== "none" && !isSyntheticMessage(message),
    sendAs: "human",
  },
});
