import { definePattern } from "../rules/define-pattern.js";

/** Its rule: `answerEveryCall` in unanswered-tool-calls.ts, once G put the call in `tool_calls`. */
export const unansweredHiddenCall = definePattern({
  code: "B3",
  kind: "unanswered-hidden-call",
  summary: "a call from outside tool_calls (an invalid call) never answered",
  shape: "a call sent from outside tool_calls (typically an invalid call: truncated arguments) never answered",
  repair: "insert a placeholder ToolMessage for it, once the call is in tool_calls (pattern G)",
  applies: ["anywhere"],
});
