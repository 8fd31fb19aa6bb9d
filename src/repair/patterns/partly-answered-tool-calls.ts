import { definePattern } from "../rules/define-pattern.js";

/** Its rule: `answerEveryCall` in unanswered-tool-calls.ts. */
export const partlyAnsweredToolCalls = definePattern({
  code: "B2",
  kind: "partly-answered-tool-calls",
  summary: "parallel tool calls partly answered",
  shape: "AIMessage with parallel tool calls only partly answered",
  repair: "insert a placeholder ToolMessage for each unanswered call",
  applies: ["anywhere"],
});
