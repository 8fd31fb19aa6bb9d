import { idOf, toolCallIdOf } from "../messages/message-view.js";
import type { Repair } from "./patterns.js";

/** The ids a {@link Repair} carries for `message`. */
export function messageRefs(message: unknown): Pick<Repair, "messageId" | "toolCallId"> {
  const messageId = idOf(message);
  const toolCallId = toolCallIdOf(message);
  return { ...(messageId ? { messageId } : {}), ...(toolCallId ? { toolCallId } : {}) };
}
