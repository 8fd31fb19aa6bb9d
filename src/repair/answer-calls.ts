import { rawToolCallIdOf, roleOf } from "../messages/message-view.js";
import type { MarkerTexts } from "./markers.js";
import { resultWith } from "./rewrite.js";
import { idOut, type ToolResult, type Turn } from "./segment.js";
import { anchorOf, placeholderToolMessage } from "./synthetic.js";

/**
 * The answer of every call of `turn` (rule 1): its result from the input, else one inserted.
 *
 * - Pattern N: a finished result found outside the list (`recovered`, from
 *   `pendingWrites`) is used when it answers the call (as a copy under the
 *   call's new id when the call is renamed; `original` then holds the write's message),
 *   and added to `used`.
 * - Patterns B, B2, B3: otherwise a placeholder ToolMessage with
 *   `status: "error"`; B when the turn has no real result at all, B2 when some
 *   parallel calls were answered, B3 for a call that was not in `tool_calls`
 *   (an invalid call, or one read from content blocks or stored output).
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
  const anchor = anchorOf(turn.ai, turn.index);
  const answers: ToolResult[] = [];
  for (let slot = 0; slot < turn.calls.length; slot++) {
    const call = turn.calls[slot]!;
    answers.push(
      found[slot] ?? {
        message: placeholderToolMessage(anchor, idOut(turn, slot), call.name, markers.missingToolResult),
        code: call.invalid ? "B3" : answered > 0 ? "B2" : "B",
      },
    );
  }
  return answers;
}

/** The finished result in `recovered` that answers the call in `slot`, if any (added to `used`). */
function recoveredResult(turn: Turn, slot: number, recovered: readonly unknown[], used: unknown[]) {
  if (recovered.length === 0) return undefined;
  const call = turn.calls[slot]!;
  // Not one already used: parallel calls may share an id, and each result answers one call.
  const result = recovered.find(
    (m) => roleOf(m) === "tool" && rawToolCallIdOf(m) === call.id && call.id !== "" && !used.includes(m),
  );
  if (result === undefined) return undefined;
  used.push(result);
  const id = idOut(turn, slot);
  const answer: ToolResult =
    id === call.id
      ? { message: result, code: "N" }
      : { message: resultWith(result, { tool_call_id: id }), original: result, code: "N" };
  return answer;
}
