import type { MarkerTexts } from "../synthetic/markers.js";
import { definePattern } from "../rules/define-pattern.js";
import { idOut, type ToolResult, type Turn } from "../walk/turn.js";
import { idOrPosition, placeholderToolMessage } from "../synthetic/inserted-messages.js";
import { partlyAnsweredToolCalls } from "./partly-answered-tool-calls.js";
import { unansweredHiddenCall } from "./unanswered-hidden-call.js";
import { recoveredResult } from "./stranded-tool-result.js";

export const unansweredToolCalls = definePattern({
  code: "B",
  kind: "unanswered-tool-calls",
  summary: "tool calls with no result",
  shape: "AIMessage whose tool calls have no ToolMessage at all",
  repair: "insert a placeholder ToolMessage (status error) for each call",
  applies: ["anywhere"],
});

/**
 * The answer of every call of `turn`: its result from the input, else a finished one recovered from `recovered`
 * (pattern N, added to `used`), else a placeholder ToolMessage with `status: "error"`: B when the turn has no real
 * result at all, B2 when some parallel calls were answered, B3 for a call that was not in `tool_calls` (an invalid
 * call, or one read from content blocks or stored output). Every provider rejects a call with no result right after
 * it (OpenAI: "An assistant message with 'tool_calls' must be followed by tool messages responding to each
 * 'tool_call_id'"; Anthropic: "tool_use ids were found without tool_result blocks immediately after").
 * @internal
 */
export function answerEveryCall(
  turn: Turn,
  markers: Readonly<MarkerTexts>,
  recovered: readonly unknown[],
  used: unknown[],
): readonly ToolResult[] {
  if (!turn.results.includes(undefined)) return turn.results as readonly ToolResult[]; // the usual turn: nothing to add
  const found: (ToolResult | undefined)[] = [];
  let answered = 0;
  for (let slot = 0; slot < turn.calls.length; slot++) {
    const result = turn.results[slot] ?? recoveredResult(turn, slot, recovered, used);
    if (result !== undefined) answered++;
    found.push(result);
  }
  const ref = idOrPosition(turn.ai, turn.index);
  const answers: ToolResult[] = [];
  for (let slot = 0; slot < turn.calls.length; slot++) {
    const call = turn.calls[slot]!;
    answers.push(
      found[slot] ?? {
        message: placeholderToolMessage(ref, idOut(turn, slot), call.name, markers.missingToolResult),
        pattern: call.invalid ? unansweredHiddenCall : answered > 0 ? partlyAnsweredToolCalls : unansweredToolCalls,
      },
    );
  }
  return answers;
}
