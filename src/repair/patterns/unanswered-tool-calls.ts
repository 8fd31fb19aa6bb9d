import { definePattern } from "../rules/define-pattern.js";

/**
 * A placeholder ToolMessage with `status: "error"` for each call of a turn with no result at all (the walk's
 * `answerEveryCall`). Every provider rejects a call with no result right after it (OpenAI: "An assistant message with
 * 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'"; Anthropic: "tool_use ids were
 * found without tool_result blocks immediately after").
 */
export const unansweredToolCalls = definePattern({
  code: "B",
  kind: "unanswered-tool-calls",
  summary: "tool calls with no result",
  shape: "AIMessage whose tool calls have no ToolMessage at all",
  repair: "insert a placeholder ToolMessage (status error) for each call",
  applies: ["anywhere"],
  pairing: { step: "placeholder", fits: (call, answered) => !call.invalid && answered === 0 },
});
