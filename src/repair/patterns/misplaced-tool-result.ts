import { definePattern } from "../rules/define-pattern.js";

/**
 * Its rule is the rebuild's order: each turn goes out as its AIMessage, then its results in call order; a result that
 * did not directly follow the previous message of its turn (in positions after removals) is moved. Anthropic: "Each
 * tool_use block must have a corresponding tool_result block in the next message"; Gemini wants call order.
 */
export const misplacedToolResult = definePattern({
  code: "E",
  kind: "misplaced-tool-result",
  summary: "a tool result out of place or out of call order",
  shape: "tool result not right after its call, or results out of call order",
  repair: "move it into place after its AIMessage, in call order",
  applies: ["anywhere"],
  pairing: { step: "order", moved: (at, previous) => at !== previous + 1 },
});
