import { hasStreamLeftovers, isStreamOnlyBlock } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";
import { withContent } from "../copies/reply-copies.js";

export const unfinishedStreamChunk = definePattern({
  code: "M",
  kind: "unfinished-stream-chunk",
  summary: "a reply saved mid-stream, its call cut off",
  shape:
    "an AIMessage saved mid-stream: a call's input streamed into content blocks only a stream carries " +
    "(input_json_delta, tool_call_chunk) stops before its JSON ends, or a call chunk's arguments do; no provider " +
    "accepts such blocks (a reply streamed to its end keeps them whole, and is left as stored)",
  repair:
    "rewrite a plain copy without those blocks; its calls stay in tool_calls (as far as they parse) and are " +
    "answered as B, even at the end: no run executes a call that never finished streaming",
  applies: ["anywhere"],
  reply: {
    blockTypes: ["input_json_delta", "tool_call_chunk"],
    readsParts: ["tool_call_chunks"],
    finds: hasStreamLeftovers,
    fix: (m) => withContent(m, (block) => !isStreamOnlyBlock(block)),
  },
});
