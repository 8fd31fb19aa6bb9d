import { definePattern } from "../rules/define-pattern.js";

/** A placeholder for a call of a turn where some parallel call has a result (the walk's `answerEveryCall`). */
export const partlyAnsweredToolCalls = definePattern({
  code: "B2",
  kind: "partly-answered-tool-calls",
  summary: "parallel tool calls partly answered",
  shape: "AIMessage with parallel tool calls only partly answered",
  repair: "insert a placeholder ToolMessage for each unanswered call",
  applies: ["anywhere"],
  pairing: { step: "placeholder", fits: (call, answered) => !call.invalid && answered > 0 },
});
