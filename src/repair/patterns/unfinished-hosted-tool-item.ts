import { hasUnfinishedHostedItem, isUnfinishedHostedItem, replayedOutput } from "../../messages/responses-items.js";
import { definePattern } from "../rules/define-pattern.js";
import { withoutOutputItems } from "../copies/reply-copies.js";
import { replyWith } from "../copies/message-copies.js";

type Loose = Record<string, unknown>;

export const unfinishedHostedToolItem = definePattern({
  code: "U",
  kind: "unfinished-hosted-tool-item",
  summary: "a Responses hosted-tool item stored unfinished",
  shape:
    "a Responses hosted-tool item (web search, file search, code interpreter, image generation, MCP, shell, tool " +
    "search) stored before it finished (status in_progress, searching, interpreting, generating, calling or " +
    "incomplete)",
  repair: "rewrite a copy of the stored output without it, dropped whole (reported)",
  applies: ["anywhere"],
  reply: {
    readsParts: ["output", "tool_outputs"],
    finds: hasUnfinishedHostedItem,
    fix: (m) => {
      const kwargs = (m as Loose).additional_kwargs as Loose | undefined;
      const outputs = kwargs?.tool_outputs;
      const copy = replayedOutput(m) ? withoutOutputItems(m, (output, i) => isUnfinishedHostedItem(output[i])) : m;
      if (!Array.isArray(outputs) || !outputs.some(isUnfinishedHostedItem)) return copy;
      const kept = outputs.filter((item) => !isUnfinishedHostedItem(item));
      return replyWith(copy, { additional_kwargs: { ...(copy as Loose).additional_kwargs!, tool_outputs: kept } });
    },
  },
});
