import { hasUnsignedThinking, isSigned, isUnsignedThinking } from "../../messages/anthropic-blocks.js";
import { definePattern } from "../rules/define-pattern.js";
import { withContent } from "../copies/reply-copies.js";

export const unsignedThinkingBlock = definePattern({
  code: "R",
  kind: "unsigned-thinking-block",
  summary: "a thinking block cut off before its signature",
  shape:
    "a thinking block cut off before its signature (signature empty or missing, as a stopped stream leaves it), or " +
    "a redacted_thinking block without its data: Anthropic rejects it. A Gemini reply's thought parts need no " +
    "signature and stay, but where the history goes to Claude (`provider` anthropic, or a Claude `model`) every " +
    "thinking block without a signature goes, whoever made it",
  repair: "rewrite a copy without the block, dropped whole (reported); every signed block stays as stored, in place",
  applies: ["anywhere"],
  reply: {
    blockTypes: ["thinking", "redacted_thinking"],
    readsBlock: (block) => block.type === "redacted_thinking" || !isSigned(block),
    finds: (m, at) => hasUnsignedThinking(m, at.toClaude),
    fix: (m, at) => withContent(m, (block) => !isUnsignedThinking(m, block, at.toClaude)),
  },
});
