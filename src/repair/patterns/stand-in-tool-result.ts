import { idOf, rawToolCallIdOf, roleOf } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";
import type { KeptResult, Turn } from "../walk/turn.js";

export const standInToolResult = definePattern({
  code: "AA",
  kind: "stand-in-tool-result",
  summary: "a client's stand-in result for a call that finished",
  shape:
    "a tool result the next input holds for a call a stopped run left open (a chat front end's stub after Stop) while the call's real result finished, stranded in pendingWrites",
  repair: "remove the stand-in (reported whole); the finished result answers the call (N)",
  applies: ["anywhere"],
  keepsNeighbours: true,
  pairing: { step: "yields", yieldToFinished },
});

/**
 * Drops from `turn` each result the input holds (from `inputStart` on) whose call has a finished result in
 * `recovered`, and returns them: one result per call (Anthropic: "each tool_use must have a single result"), and the
 * run's own over the front end's stand-in.
 */
function yieldToFinished(turn: Turn, recovered: readonly unknown[], inputStart: number): KeptResult[] {
  const dropped: KeptResult[] = [];
  if (recovered.length === 0) return dropped;
  turn.results.forEach((result, slot) => {
    if (result === undefined || result.index < inputStart) return;
    const id = turn.calls[slot]!.id;
    // The finished result itself, sent back by a client that read it (getState shows finished tasks' writes), stays.
    const finished = recovered.find((m) => roleOf(m) === "tool" && rawToolCallIdOf(m) === id);
    if (finished === undefined || idOf(finished) === idOf(result.message)) return;
    dropped.push(result);
    turn.results[slot] = undefined;
  });
  return dropped;
}
