/**
 * What a cut-off stream leaves in a stored AIMessage that no provider accepts (patterns M and P), found before
 * the rebuild so that every later rewrite of the message starts from its clean copy.
 */
import { hasLoneReasoningItem, hasStreamLeftovers, roleOf } from "../messages/message-view.js";
import type { PatternId } from "./patterns.js";
import { withoutStreamLeftovers } from "./rewrite.js";

/** A stored AIMessage sent as a copy without what a cut-off stream left in it (patterns M, P). */
export interface CleanedReply {
  message: unknown;
  codes: PatternId[];
}

/** The AIMessages of `messages[0, end)` that hold stream leftovers, by position, each with its clean copy. */
export function cleanReplies(messages: readonly unknown[], end: number): Map<number, CleanedReply> | undefined {
  let cleaned: Map<number, CleanedReply> | undefined;
  for (let i = 0; i < end; i++) {
    const message = messages[i];
    if (roleOf(message) !== "ai") continue;
    const chunk = hasStreamLeftovers(message);
    const lone = hasLoneReasoningItem(message);
    if (!chunk && !lone) continue;
    const codes: PatternId[] = chunk && lone ? ["M", "P"] : chunk ? ["M"] : ["P"];
    (cleaned ??= new Map()).set(i, { message: withoutStreamLeftovers(message), codes });
  }
  return cleaned;
}
