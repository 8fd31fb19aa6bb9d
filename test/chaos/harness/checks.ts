/**
 * What the soak checks in a thread's stored state and in every request a provider got: the real tool results a
 * checkpoint holds, how each call was answered, and calls answered twice.
 */
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { isSyntheticMessage } from "../../../src/index.js";

const isTool = (m: unknown): m is ToolMessage => ToolMessage.isInstance(m as BaseMessage);
const text = (m: ToolMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

/** The messages of a tuple's `messages` channel. */
export const storedMessages = (tuple: CheckpointTuple | undefined): unknown[] =>
  (tuple?.checkpoint.channel_values?.messages as unknown[] | undefined) ?? [];

/** A real tool result found in a checkpoint: where it was, for the report of a loss. */
export interface RealResult {
  content: string;
  where: "channel" | "pending write";
  checkpointId: string;
}

/**
 * The real tool results a checkpoint holds, by call id: ToolMessages in its `messages` channel that the
 * sanitizer did not insert, and those finished tasks left in its pending writes.
 */
export function realResults(tuple: CheckpointTuple | undefined): Map<string, RealResult> {
  const found = new Map<string, RealResult>();
  const checkpointId = tuple?.checkpoint.id ?? "";
  const add = (where: RealResult["where"]) => (m: unknown) => {
    if (isTool(m) && !isSyntheticMessage(m)) found.set(m.tool_call_id, { content: text(m), where, checkpointId });
  };
  storedMessages(tuple).forEach(add("channel"));
  for (const [, channel, value] of tuple?.pendingWrites ?? []) {
    if (channel === "messages") (Array.isArray(value) ? value : [value]).forEach(add("pending write"));
  }
  return found;
}

/**
 * How a history answers `callId`: with the result `real`, with a placeholder (or another result) only, not at all,
 * or whether no AIMessage in it made the call.
 */
export function answerOf(
  messages: readonly unknown[],
  callId: string,
  real: string,
): "real" | "placeholder" | "other" | "none" | "call-missing" {
  const answers = messages.filter((m): m is ToolMessage => isTool(m) && m.tool_call_id === callId);
  if (answers.some((m) => !isSyntheticMessage(m) && text(m) === real)) return "real";
  if (answers.some(isSyntheticMessage)) return "placeholder";
  if (answers.length > 0) return "other";
  const called = messages.some((m) => AIMessage.isInstance(m) && m.tool_calls?.some((c) => c.id === callId));
  return called ? "none" : "call-missing";
}

/** Call ids answered by more than one ToolMessage in `messages`. */
export function answeredTwice(messages: readonly unknown[]): string[] {
  return duplicates(messages.flatMap((m) => (isTool(m) ? [m.tool_call_id] : [])));
}

/** Whether a history holds a message the sanitizer inserted. */
export const holdsRepair = (messages: readonly unknown[]) => messages.some(isSyntheticMessage);

function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) (seen.has(id) ? twice : seen).add(id);
  return [...twice];
}

/**
 * The call ids a provider request answers, in each wire format: Anthropic `tool_result` blocks, chat-completions
 * `tool` messages (OpenAI, Mistral), Responses `function_call_output` items, Bedrock `toolResult` blocks. (Gemini
 * pairs results with calls by position: it has no ids to count, and the emulator checks the count.)
 */
export function requestAnswers(body: unknown): string[] {
  const ids: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== "object" || node === null) return;
    const o = node as Record<string, unknown>;
    if (o.type === "tool_result" && typeof o.tool_use_id === "string") ids.push(o.tool_use_id);
    if (o.role === "tool" && typeof o.tool_call_id === "string") ids.push(o.tool_call_id);
    if (o.type === "function_call_output" && typeof o.call_id === "string") ids.push(o.call_id);
    const bedrock = o.toolResult as { toolUseId?: unknown } | undefined;
    if (typeof bedrock?.toolUseId === "string") ids.push(bedrock.toolUseId);
    for (const [key, value] of Object.entries(o)) if (key !== "tools") walk(value);
  };
  const history = body as Record<string, unknown>;
  walk(history.messages ?? history.input ?? history.contents);
  return ids;
}

/** Call ids a provider request answers more than once. */
export const requestAnsweredTwice = (body: unknown) => duplicates(requestAnswers(body));
