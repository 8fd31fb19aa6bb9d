// Every pattern's unit: the one place each pattern is described and its rule is kept. A unit's file, its export, its
// test (`test/unit/patterns/<kind>.test.ts`) and its anchor in docs/repairs.md are all named by its `kind`; its `code` is
// the short id users see in reports. The README's table and docs/repairs.md are checked against it by a test.
import { callOutsideToolCalls } from "./call-outside-tool-calls.js";
import { consecutiveReplies } from "./consecutive-replies.js";
import { duplicateToolResult } from "./duplicate-tool-result.js";
import { echoedMarker } from "./echoed-marker.js";
import { emptyReply } from "./empty-reply.js";
import { emptyToolResult } from "./empty-tool-result.js";
import { emptyUserTurn } from "./empty-user-turn.js";
import { foreignThinkingBlock } from "./foreign-thinking-block.js";
import { invalidCallId } from "./invalid-call-id.js";
import { leadingReply } from "./leading-reply.js";
import { leftoverRemoveMessage } from "./leftover-remove-message.js";
import { loneReasoningItem } from "./lone-reasoning-item.js";
import { misplacedToolResult } from "./misplaced-tool-result.js";
import { missingReply } from "./missing-reply.js";
import { orphanToolResult } from "./orphan-tool-result.js";
import { partlyAnsweredToolCalls } from "./partly-answered-tool-calls.js";
import { requestEndsOnReply } from "./request-ends-on-reply.js";
import { standInToolResult } from "./stand-in-tool-result.js";
import { strandedToolResult } from "./stranded-tool-result.js";
import { systemMessageMidHistory } from "./system-message-mid-history.js";
import { unansweredHiddenCall } from "./unanswered-hidden-call.js";
import { unansweredToolCalls } from "./unanswered-tool-calls.js";
import { unclosedToolResults } from "./unclosed-tool-results.js";
import { unfinishedHostedToolItem } from "./unfinished-hosted-tool-item.js";
import { unfinishedStreamChunk } from "./unfinished-stream-chunk.js";
import { unkeptReasoningItem } from "./unkept-reasoning-item.js";
import { unpairedServerToolBlock } from "./unpaired-server-tool-block.js";
import { unsignedGeminiCall } from "./unsigned-gemini-call.js";
import { unsignedThinkingBlock } from "./unsigned-thinking-block.js";

/** In the order of the docs' tables (by code). */
const LIST = [
  missingReply,
  unansweredToolCalls,
  partlyAnsweredToolCalls,
  unansweredHiddenCall,
  unclosedToolResults,
  orphanToolResult,
  misplacedToolResult,
  duplicateToolResult,
  callOutsideToolCalls,
  emptyReply,
  invalidCallId,
  leadingReply,
  consecutiveReplies,
  leftoverRemoveMessage,
  unfinishedStreamChunk,
  strandedToolResult,
  loneReasoningItem,
  unpairedServerToolBlock,
  unsignedThinkingBlock,
  foreignThinkingBlock,
  unsignedGeminiCall,
  unfinishedHostedToolItem,
  unkeptReasoningItem,
  emptyToolResult,
  emptyUserTurn,
  systemMessageMidHistory,
  requestEndsOnReply,
  standInToolResult,
  echoedMarker,
] as const;

type Unit = (typeof LIST)[number];

/**
 * The reply rules in the order they run, each on the copy the last one wrote: a partial stream chunk is read whole
 * before its blocks are, thinking blocks before the items they sit with, and a lone reasoning item is one the rules
 * before it left alone.
 */
export const REPLY_ORDER = Object.freeze([
  unfinishedStreamChunk,
  unpairedServerToolBlock,
  unsignedThinkingBlock,
  foreignThinkingBlock,
  unfinishedHostedToolItem,
  unkeptReasoningItem,
  loneReasoningItem,
  unsignedGeminiCall,
] as const);

/** Every unit, by code. */
export const UNITS = Object.freeze(Object.fromEntries(LIST.map((unit) => [unit.code, unit]))) as {
  readonly [U in Unit as U["code"]]: U;
};
