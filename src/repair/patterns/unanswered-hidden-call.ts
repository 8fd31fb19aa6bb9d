import { definePattern } from "../rules/define-pattern.js";

/** A placeholder for a call that was not in `tool_calls`, once G put it there (the walk's `answerEveryCall`). */
export const unansweredHiddenCall = definePattern({
  code: "B3",
  kind: "unanswered-hidden-call",
  summary: "a call from outside tool_calls (an invalid call) never answered",
  shape: "a call sent from outside tool_calls (typically an invalid call: truncated arguments) never answered",
  repair: "insert a placeholder ToolMessage for it, once the call is in tool_calls (pattern G)",
  applies: ["anywhere"],
  pairing: { step: "placeholder", fits: (call) => call.invalid },
});
