import { rawToolCallIdOf, roleOf } from "../messages/message-view.js";
import type { MarkerTexts } from "./markers.js";
import { rewriteResultId } from "./rewrite.js";
import type { ToolResult, Turn } from "./segment.js";
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
): ToolResult[] {
  const anchor = anchorOf(turn.ai, turn.index);
  const found = turn.results.map((kept, slot): ToolResult | undefined => {
    if (kept !== undefined) return kept;
    const call = turn.calls[slot]!;
    const result = recovered.find((m) => roleOf(m) === "tool" && rawToolCallIdOf(m) === call.id && call.id !== "");
    if (result === undefined) return undefined;
    used.push(result);
    const id = turn.ids[slot]!;
    return id === call.id
      ? { message: result, code: "N" }
      : { message: rewriteResultId(result, id), original: result, code: "N" };
  });
  const anyAnswered = found.some((r) => r !== undefined);
  return found.map((result, slot) => {
    if (result !== undefined) return result;
    const call = turn.calls[slot]!;
    return {
      message: placeholderToolMessage(anchor, turn.ids[slot]!, call.name, markers.missingToolResult),
      code: call.invalid ? "B3" : anyAnswered ? "B2" : "B",
    };
  });
}
