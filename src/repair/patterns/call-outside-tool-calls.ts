import { definePattern } from "../rules/define-pattern.js";
import { hasHiddenCalls } from "../../messages/message-view.js";
import type { Turn } from "../walk/turn.js";

/**
 * Whether the AIMessage of `turn` puts a call on the wire that its `tool_calls` does not hold, or holds an entry that
 * is not a call: it goes out as a copy with exactly its calls in `tool_calls` (`rewriteCalls`). The clean check reads
 * the same through `hasHiddenCalls`.
 */
function callsOutsideToolCalls(turn: Turn): boolean {
  const stored = (turn.ai as { tool_calls?: unknown }).tool_calls;
  let visible = 0;
  for (const call of turn.calls) if (!call.invalid) visible++;
  return visible !== turn.calls.length || !Array.isArray(stored) || stored.length !== visible;
}

export const callOutsideToolCalls = definePattern({
  code: "G",
  kind: "call-outside-tool-calls",
  summary: "a call some integrations send that tool_calls does not hold",
  shape:
    "AIMessage with a call some integrations send and others do not: additional_kwargs.tool_calls while " +
    "tool_calls is empty, or a content tool_use/tool_call/function_call block or a Responses output " +
    "function_call item missing from tool_calls",
  repair: "rewrite a copy with the call in tool_calls (truncated arguments as {}), so every integration sends it",
  applies: ["anywhere"],
  pairing: { step: "calls", hides: hasHiddenCalls, outside: callsOutsideToolCalls },
});
