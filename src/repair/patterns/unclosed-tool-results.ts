import { definePattern } from "../rules/define-pattern.js";
import { closingMessage } from "../synthetic/inserted-messages.js";

export const unclosedToolResults = definePattern({
  code: "C",
  kind: "unclosed-tool-results",
  summary: "tool results with no reply before the next user turn or the end",
  shape:
    "a run of ToolMessages not closed by an AIMessage before the next HumanMessage or the end. Leftovers: the " +
    "results of a turn the repair had to answer, or the end of a run that stopped midway, when new input " +
    "follows. Role order: real results before a user turn (a tool that ends the run, such as returnDirect)",
  repair: "insert a marker AIMessage after the run",
  applies: ["leftovers", "provider"],
  // Mistral: "Unexpected role 'user' after role 'tool'"; Bedrock: tool results are a user turn, and roles alternate.
  boundary: {
    after: "tools",
    before: "human",
    insert: (around, texts) => closingMessage(around.userTurn || around.lastReply, texts.missingReplyAfterTools),
  },
});
