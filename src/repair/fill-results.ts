import { rawToolCallIdOf, roleOf } from "../messages/message-view.js";
import type { MarkerTexts } from "./markers.js";
import { rewriteResultId } from "./rewrite.js";
import type { Turn } from "./segment.js";
import { anchorOf, placeholderToolMessage } from "./synthetic.js";

/**
 * Answers every unanswered call of `turn` (rule 1).
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
export function fillMissingResults(
  turn: Turn,
  markers: Readonly<MarkerTexts>,
  recovered: readonly unknown[],
  used: unknown[],
): void {
  const anchor = anchorOf(turn.ai, turn.index);
  turn.calls.forEach((call, slot) => {
    if (turn.results[slot] !== undefined) return;
    const found = recovered.find((m) => roleOf(m) === "tool" && rawToolCallIdOf(m) === call.id && call.id !== "");
    if (found === undefined) return;
    used.push(found);
    const id = turn.ids[slot]!;
    turn.results[slot] =
      id === call.id
        ? { message: found, index: -1, code: "N" }
        : { message: rewriteResultId(found, id), original: found, index: -1, code: "N" };
  });
  const anyAnswered = turn.results.some((r) => r !== undefined);
  turn.calls.forEach((call, slot) => {
    if (turn.results[slot] !== undefined) return;
    turn.results[slot] = {
      message: placeholderToolMessage(anchor, turn.ids[slot]!, call.name, markers.missingToolResult),
      index: -1,
      code: call.invalid ? "B3" : anyAnswered ? "B2" : "B",
    };
  });
}
