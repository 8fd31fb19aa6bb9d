import { definePattern } from "../rules/define-pattern.js";

/**
 * Its rule is the pairing itself (`segment`): a ToolMessage answers the nearest earlier AIMessage that declared its
 * `tool_call_id`; one that none declared is removed. OpenAI: "messages with role 'tool' must be a response to a
 * preceding message with 'tool_calls'"; Anthropic: "unexpected tool_use_id found in tool_result blocks".
 */
export const orphanToolResult = definePattern({
  code: "D",
  kind: "orphan-tool-result",
  summary: "a tool result whose call no earlier reply made",
  shape: "orphan ToolMessage: no earlier AIMessage made its call",
  repair: "remove it (it is reported whole)",
  applies: ["anywhere"],
});
