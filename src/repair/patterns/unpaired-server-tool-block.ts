import { hasServerToolBlocks, isServerToolBlock, visitUnpairedServerBlocks } from "../../messages/anthropic-blocks.js";
import { isStreamOnlyBlock } from "../../messages/message-view.js";
import { definePattern, type ReplyContext } from "../rules/define-pattern.js";
import { contentOf, withContent } from "../copies/reply-copies.js";

type Loose = Record<string, unknown>;

const visitUnpaired = (m: unknown, at: ReplyContext, visit: (position: number) => boolean) =>
  visitUnpairedServerBlocks(contentOf(m), at.messages, at.index, at.openTail, visit);

export const unpairedServerToolBlock = definePattern({
  code: "Q",
  kind: "unpaired-server-tool-block",
  summary: "a server tool's use without its result, or a result without its use",
  shape:
    "an Anthropic server tool's block without its other half: a server_tool_use (web search, web fetch, code " +
    "execution) whose *_tool_result never came (a stream cut off, or a client that drops that result block), or a " +
    "result whose use is gone. A use answered in the next reply, or still pending where a request ends (the API " +
    "runs it then), is not unpaired",
  repair: "rewrite a copy without the unpaired block, dropped whole (reported); a finished use and its result stay",
  applies: ["anywhere"],
  reply: {
    blockTypes: ["server_tool_use", "*_tool_result"],
    readsBlock: isServerToolBlock,
    // Only a reply holding a server block is walked: the walk reads the messages after it.
    finds: (m, at) => hasServerToolBlocks(m) && visitUnpaired(m, at, () => true),
    fix: (m, at) => {
      const unpaired = new Set<number>();
      visitUnpaired(m, at, (i) => (unpaired.add(i), false));
      // A streamed use's input came as input_json_delta blocks of its index: they go with it.
      const streamed = new Set<unknown>(
        [...unpaired].map((i) => (contentOf(m)[i] as Loose).index).filter((x) => x !== undefined),
      );
      return withContent(m, (block, i) => !unpaired.has(i) && !(isStreamOnlyBlock(block) && streamed.has(block.index)));
    },
  },
});
