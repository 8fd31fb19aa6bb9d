import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { idOf, roleOf } from "../messages/message-view.js";

/**
 * Every message the sanitizer creates has an id with this prefix, derived from
 * the ids of the messages around it. Repeated reads of one checkpoint therefore
 * produce identical messages, the `messages` reducer merges them by id instead
 * of duplicating them, and an app can remove one with `RemoveMessage`.
 */
export const SYNTHETIC_ID_PREFIX = "sanitizer-";

/** Whether a message was inserted by the sanitizer (a placeholder or a marker). */
export function isSyntheticMessage(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  return idOf(message)?.startsWith(SYNTHETIC_ID_PREFIX) ?? false;
}

/** Whether `message` is a marker stored as a SystemMessage (`bridgeRole: "system"`): it stands for the reply it marks. */
export const isSystemBridge = (message: unknown): boolean =>
  roleOf(message) === "system" && isSyntheticMessage(message);

/** A stable reference to a message: its id, or its position when it has none. */
export function anchorOf(message: unknown, index: number): string {
  return idOf(message) ?? `#${index}`;
}

/** The placeholder result for a tool call that was never answered. */
export function placeholderToolMessage(anchor: string, toolCallId: string, name: string, text: string): ToolMessage {
  return new ToolMessage({
    id: `${SYNTHETIC_ID_PREFIX}result-${anchor}-${toolCallId}`,
    content: text,
    tool_call_id: toolCallId,
    name,
    status: "error",
  });
}

/** How the marker that bridges two consecutive HumanMessages is sent. */
export type BridgeRole = "ai" | "system";

/** Every {@link BridgeRole}, for validating options. */
export const BRIDGE_ROLES: readonly BridgeRole[] = ["ai", "system"];

/**
 * The marker between a HumanMessage and the next one (pattern A). An AIMessage
 * keeps the roles alternating for every provider. A SystemMessage, the
 * originating design's choice, is rejected mid-history by Anthropic and Gemini.
 */
export function bridgeMessage(anchor: string, text: string, role: BridgeRole): BaseMessage {
  const id = `${SYNTHETIC_ID_PREFIX}reply-${anchor}`;
  return role === "system" ? new SystemMessage({ id, content: text }) : new AIMessage({ id, content: text });
}

/** The user turn before a history's first reply (pattern J): providers want the user to speak first. */
export function openingMessage(anchor: string, text: string): HumanMessage {
  return new HumanMessage({ id: `${SYNTHETIC_ID_PREFIX}opening-${anchor}`, content: text });
}

/**
 * The user turn between two replies in a row (pattern K). A HumanMessage rather than a merge of the two: each
 * reply goes out as stored (thinking blocks first, signatures and ids intact), and the roles alternate.
 */
export function betweenRepliesMessage(anchor: string, text: string): HumanMessage {
  return new HumanMessage({ id: `${SYNTHETIC_ID_PREFIX}between-${anchor}`, content: text });
}

/** The user turn after a reply that ends a model request (pattern Z): the model is asked to go on. */
export function continueMessage(anchor: string, text: string): HumanMessage {
  return new HumanMessage({ id: `${SYNTHETIC_ID_PREFIX}continue-${anchor}`, content: text });
}

/**
 * The AIMessage that closes a run of tool results nothing replied to (pattern C), anchored, like the bridge
 * (pattern A), to the user turn it answers: the one id of "the reply that turn never got". A parent graph and
 * its persistent subgraph may close one cancelled turn differently (the parent never saw the calls); with one
 * id, the `messages` reducer merges their markers into one reply instead of leaving two in a row.
 */
export function closingMessage(userTurn: string, text: string): AIMessage {
  return new AIMessage({ id: `${SYNTHETIC_ID_PREFIX}reply-${userTurn}`, content: text });
}
