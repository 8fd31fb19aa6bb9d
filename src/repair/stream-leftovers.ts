/**
 * What a cut-off stream leaves in a stored AIMessage that no provider accepts (patterns M and P), found as the
 * rebuild reads the message, so that every later rewrite of it starts from its clean copy.
 */
import { hasLoneReasoningItem, hasStreamLeftovers } from "../messages/message-view.js";
import type { PatternId } from "./patterns.js";
import { withoutStreamLeftovers } from "./rewrite.js";

/** A stored AIMessage sent as a copy without what a cut-off stream left in it (patterns M, P). */
export interface CleanedReply {
  message: unknown;
  codes: PatternId[];
}

/** The clean copy of an AIMessage that holds stream leftovers, or undefined when it holds none. */
export function cleanReply(message: unknown): CleanedReply | undefined {
  const chunk = hasStreamLeftovers(message);
  const lone = hasLoneReasoningItem(message);
  if (!chunk && !lone) return undefined;
  const codes: PatternId[] = chunk && lone ? ["M", "P"] : chunk ? ["M"] : ["P"];
  return { message: withoutStreamLeftovers(message), codes };
}
