/**
 * OpenAI Chat Completions (`POST /openai/v1/chat/completions`, SSE when `stream: true`).
 *
 * History rules, from https://platform.openai.com/docs/guides/function-calling ("the model's tool
 * calls ... then one message with role `tool` per call, with its `tool_call_id`") and the API's
 * 400 `invalid_request_error` texts; the id limits are the request schema's (`tool_calls[].id`,
 * `tool_call_id`: a non-empty string of at most 40 characters).
 */
import { chatCompletion, chatCompletionChunks, chatLastTurn, chatMessages } from "./chat-completions.js";
import { NO_LEDGER, type ProviderApi } from "./server.js";
import type { Rejection } from "./script.js";

const MODEL = "gpt-4o-mini";
const reject = (message: string, param: string | null = null): Rejection => ({
  status: 400,
  body: { error: { message, type: "invalid_request_error", param, code: null } },
});

function idError(id: string | undefined, where: string): Rejection | undefined {
  if (!id)
    return reject(
      `Invalid '${where}': empty string. Expected a string with minimum length 1, but got an empty string instead.`,
      where,
    );
  if (id.length > 40) {
    return reject(
      `Invalid '${where}': string too long. Expected a string with maximum length 40, but got a string with length ${id.length} instead.`,
      where,
    );
  }
  return undefined;
}

export function openAiChatError(body: Record<string, unknown>): Rejection | undefined {
  const messages = chatMessages(body);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "tool") {
      return reject(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        `messages.[${i}].role`,
      );
    }
    if (m.role !== "assistant" || !m.tool_calls?.length) continue;
    const calls = m.tool_calls.map((c) => c.id);
    for (const [k, id] of calls.entries()) {
      const error = idError(id, `messages[${i}].tool_calls[${k}].id`);
      if (error) return error;
    }
    const answered = new Set<string>();
    let j = i + 1;
    for (; j < messages.length && messages[j]!.role === "tool"; j++) {
      const id = messages[j]!.tool_call_id;
      const error = idError(id, `messages[${j}].tool_call_id`);
      if (error) return error;
      if (!calls.includes(id))
        return reject(
          `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`,
          `messages.[${j}].tool_call_id`,
        );
      if (answered.has(id!))
        return reject(`Duplicate value for 'tool_call_id' of ${id} in message[${j}]`, `messages.[${j}].tool_call_id`);
      answered.add(id!);
    }
    const missing = calls.filter((id) => !answered.has(id!));
    if (missing.length > 0) {
      return reject(
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
          `The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
        `messages.[${j}].role`,
      );
    }
    i = j - 1;
  }
  return undefined;
}

export const openAiChat: ProviderApi = {
  name: "openai",
  newLedger: NO_LEDGER,
  route: (path, body) => (path === "/openai/v1/chat/completions" ? { stream: body.stream === true } : undefined),
  validate: openAiChatError,
  lastTurn: chatLastTurn,
  json: (reply, { nextId }) => chatCompletion(reply, MODEL, (n) => `call_${n}`, nextId),
  stream: (reply, { nextId }) => chatCompletionChunks(reply, MODEL, (n) => `call_${n}`, nextId),
};
