import { rawToolCallIdOf, roleOf } from "../../messages/message-view.js";
import { definePattern } from "../pattern.js";
import type { Repair } from "../patterns.js";
import { reportOf } from "../report.js";
import type { Turn } from "../turn.js";

export const standInToolResult = definePattern({
  code: "AA",
  kind: "stand-in-tool-result",
  summary: "a client's stand-in result for a call that finished",
  shape:
    "a tool result the next input holds for a call a stopped run left open (a chat front end's stub after Stop) while the call's real result finished, stranded in pendingWrites",
  repair: "remove the stand-in (reported whole); the finished result answers the call (N)",
  applies: ["anywhere"],
  keepsNeighbours: true,
});

/**
 * Drops from `turn` each result the input holds (from `inputStart` on) whose call has a finished result in
 * `recovered`, reporting it in `repairs`: one result per call (Anthropic: "each tool_use must have a single result"),
 * and the run's own over the front end's stand-in.
 * @internal
 */
export function yieldToFinished(turn: Turn, recovered: readonly unknown[], inputStart: number, repairs: Repair[]) {
  if (recovered.length === 0) return;
  turn.results.forEach((result, slot) => {
    if (result === undefined || result.index < inputStart) return;
    const id = turn.calls[slot]!.id;
    if (!recovered.some((m) => roleOf(m) === "tool" && rawToolCallIdOf(m) === id)) return;
    repairs.push(reportOf(standInToolResult, "removed", result.index, result.message));
    turn.results[slot] = undefined;
  });
}
