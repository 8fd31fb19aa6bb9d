import { roleOf, toolCallIdOf } from "../messages/message-view.js";
import type { MarkerTexts } from "./markers.js";
import type { Turn } from "./segment.js";
import { anchorOf, placeholderToolMessage } from "./synthetic.js";

/**
 * Answers every unanswered call of `turn` (rule 1).
 *
 * - Pattern N: a finished result found outside the list (`recovered`, from
 *   `pendingWrites`) is used when it answers the call.
 * - Patterns B, B2, B3: otherwise a placeholder ToolMessage with
 *   `status: "error"`; B when the turn has no real result at all, B2 when some
 *   parallel calls were answered, B3 for an `invalid_tool_calls` entry.
 */
export function fillMissingResults(turn: Turn, markers: Readonly<MarkerTexts>, recovered: readonly unknown[]): void {
  const anchor = anchorOf(turn.ai, turn.index);
  turn.calls.forEach((call, slot) => {
    if (turn.results[slot] !== undefined) return;
    const found = recovered.find((m) => roleOf(m) === "tool" && toolCallIdOf(m) === call.id);
    if (found !== undefined) turn.results[slot] = { message: found, index: -1, kind: "N" };
  });
  const anyAnswered = turn.results.some((r) => r !== undefined);
  turn.calls.forEach((call, slot) => {
    if (turn.results[slot] !== undefined) return;
    turn.results[slot] = {
      message: placeholderToolMessage(anchor, call.id, call.name, markers.missingToolResult),
      index: -1,
      kind: call.invalid ? "B3" : anyAnswered ? "B2" : "B",
    };
  });
}
