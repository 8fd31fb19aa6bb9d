import { hasEmptyContent } from "../../messages/message-view.js";
import { definePattern } from "../rules/define-pattern.js";

export const emptyToolResult = definePattern({
  code: "W",
  kind: "empty-tool-result",
  summary: "an empty tool result",
  shape: "a ToolMessage with no text (a tool that returned nothing): Bedrock rejects its blank toolResult",
  repair: "rewrite a copy with a marker text",
  applies: ["provider"],
  message: { role: "tool", finds: hasEmptyContent, text: "emptyToolResult" },
});
