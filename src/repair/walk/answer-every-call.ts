import type { ToolCallRef } from "../../messages/message-view.js";
import type { PatternUnit } from "../rules/define-pattern.js";
import type { RuleSet } from "../rules/rule-set.js";
import type { MarkerTexts } from "../synthetic/markers.js";
import { idOrPosition, placeholderToolMessage } from "../synthetic/inserted-messages.js";
import { idOut, type ToolResult, type Turn } from "./turn.js";

function placeholderRule(rules: RuleSet, call: ToolCallRef, answered: number): PatternUnit {
  const units = rules.placeholders;
  let i = 0;
  while (!units[i]!.pairing.fits(call, answered)) i++;
  return units[i]!;
}

/**
 * The answer of every call of `turn`: its result from the input, else a finished one the recovered rule finds in
 * `recovered` (added to `used`), else a placeholder (`status: "error"`) reported under the placeholder rule that fits.
 */
export function answerEveryCall(
  turn: Turn,
  rules: RuleSet,
  markers: Readonly<MarkerTexts>,
  recovered: readonly unknown[],
  used: unknown[],
): readonly ToolResult[] {
  if (!turn.results.includes(undefined)) return turn.results as readonly ToolResult[]; // the usual turn: nothing to add
  const { resultFor } = rules.pairing.recovered.pairing;
  const found: (ToolResult | undefined)[] = [];
  let answered = 0;
  for (let slot = 0; slot < turn.calls.length; slot++) {
    const result = turn.results[slot] ?? resultFor(turn, slot, recovered, used);
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
        pattern: placeholderRule(rules, call, answered),
      },
    );
  }
  return answers;
}
