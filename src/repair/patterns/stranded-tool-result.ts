import { rawToolCallIdOf, roleOf } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";
import { resultWith } from "../copies/message-copies.js";
import { idOut, type ToolResult, type Turn } from "../walk/turn.js";

export const strandedToolResult = definePattern({
  code: "N",
  kind: "stranded-tool-result",
  summary: "finished tool results stranded in pendingWrites",
  shape: "finished tool results stranded in pendingWrites while their call is unanswered",
  repair: "use the real result instead of a placeholder, and drop that pending write",
  applies: ["anywhere"],
  pairing: { step: "recovered", resultFor: recoveredResult },
});

/**
 * The finished result in `recovered` (a checkpoint's pending writes) that answers the call in `slot`, if any, added
 * to `used`: as a copy under the call's new id when the call is renamed (`original` then holds the write's message).
 */
function recoveredResult(
  turn: Turn,
  slot: number,
  recovered: readonly unknown[],
  used: unknown[],
): ToolResult | undefined {
  if (recovered.length === 0) return undefined;
  const call = turn.calls[slot]!;
  // Not one already used: parallel calls may share an id, and each result answers one call.
  const result = recovered.find(
    (m) => roleOf(m) === "tool" && rawToolCallIdOf(m) === call.id && call.id !== "" && !used.includes(m),
  );
  if (result === undefined) return undefined;
  used.push(result);
  const id = idOut(turn, slot);
  return id === call.id
    ? { message: result, pattern: strandedToolResult }
    : { message: resultWith(result, { tool_call_id: id }), original: result, pattern: strandedToolResult };
}
