import { definePattern } from "../pattern.js";

/** Its rule: `answerEveryCall` in B.ts. */
export const B2 = definePattern({
  code: "B2",
  kind: "partly-answered-tool-calls",
  shape: "AIMessage with parallel tool calls only partly answered",
  repair: "insert a placeholder ToolMessage for each unanswered call",
  applies: ["anywhere"],
});
