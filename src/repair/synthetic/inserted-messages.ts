import { AIMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { idOf, roleOf } from "../../messages/message-view.js";
import { isSyntheticMessage, SYNTHETIC_ID_PREFIX } from "../../messages/synthetic-ids.js";

export { isSyntheticMessage, SYNTHETIC_ID_PREFIX } from "../../messages/synthetic-ids.js";

/** A marker stored as a SystemMessage (`bridgeRole: "system"`): it stands for the reply it marks. */
export const isSystemBridge = (message: unknown): boolean =>
  roleOf(message) === "system" && isSyntheticMessage(message);

/** Its id, or its position when it has none. */
export function idOrPosition(message: unknown, index: number): string {
  return idOf(message) ?? `#${index}`;
}

export function placeholderToolMessage(ref: string, toolCallId: string, name: string, text: string): ToolMessage {
  return new ToolMessage({
    id: `${SYNTHETIC_ID_PREFIX}result-${ref}-${toolCallId}`,
    content: text,
    tool_call_id: toolCallId,
    name,
    status: "error",
  });
}

/** How the marker between two HumanMessages is sent. */
export type BridgeRole = "ai" | "system";

export const BRIDGE_ROLES: readonly BridgeRole[] = ["ai", "system"];

/** `missing-reply`: an AIMessage, since Anthropic and Gemini reject a SystemMessage mid-history. */
export function bridgeMessage(ref: string, text: string, role: BridgeRole): BaseMessage {
  const id = `${SYNTHETIC_ID_PREFIX}reply-${ref}`;
  return role === "system" ? new SystemMessage({ id, content: text }) : new AIMessage({ id, content: text });
}

/**
 * `unclosed-tool-results`, its id derived from the user turn it answers: a parent graph and its subgraph may close one
 * cancelled turn differently, and with one id the reducer merges their markers into one reply.
 */
export function closingMessage(userTurn: string, text: string): AIMessage {
  return new AIMessage({ id: `${SYNTHETIC_ID_PREFIX}reply-${userTurn}`, content: text });
}
