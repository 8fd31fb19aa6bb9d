import { hasForeignThinking, isThinkingBlock } from "../../messages/anthropic-blocks.js";
import { definePattern } from "../rules/define-pattern.js";
import { withContent } from "../copies/reply-copies.js";

export const foreignThinkingBlock = definePattern({
  code: "S",
  kind: "foreign-thinking-block",
  summary: "thinking blocks another model signed",
  shape:
    "thinking or redacted_thinking blocks of a reply another model made (a fallback, a model switch): Anthropic " +
    "checks each signature against the model it calls",
  repair: "rewrite a copy without them, dropped whole (reported), for the model the history goes to",
  applies: ["model"],
  reply: {
    blockTypes: ["thinking", "redacted_thinking"],
    finds: (m, at) => hasForeignThinking(m, at.model!),
    fix: (m) => withContent(m, (block) => !isThinkingBlock(block)),
  },
});
