/**
 * Mistral chat completions (`POST /mistral/v1/chat/completions`, SSE when `stream: true`).
 *
 * History rules, from https://docs.mistral.ai/capabilities/function_calling/ (an assistant message
 * with `tool_calls`, then one `tool` message per call, then the assistant's answer) and the API's
 * 400 `invalid_request_message_order` texts. Its id rule (9 characters of `[a-zA-Z0-9]`) is not
 * modelled: ChatMistralAI rewrites every id to fit it. A system message comes before the conversation ("Unexpected
 * role 'system' after role 'assistant'", swarmauri#162; strictly, after any turn), and a request ends on the user or
 * tool results.
 */
import { chatCompletion, chatCompletionChunks, chatLastTurn, chatMessages } from "./chat-completions.js";
import { NO_LEDGER, type ProviderApi } from "./server.js";
import type { Rejection } from "./script.js";

const MODEL = "mistral-large-latest";
const reject = (message: string): Rejection => ({
  status: 400,
  body: { object: "error", message, type: "invalid_request_message_order", param: null, code: "3230" },
});

export function mistralError(body: Record<string, unknown>): Rejection | undefined {
  const messages = chatMessages(body);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const prev = messages[i - 1];
    if (m.role === "tool" && !(prev?.role === "tool" || (prev?.role === "assistant" && prev.tool_calls?.length))) {
      return reject(`Unexpected role 'tool' after role '${prev?.role ?? "none"}'`);
    }
    if (m.role === "user" && prev?.role === "tool") return reject("Unexpected role 'user' after role 'tool'");
    if (m.role === "system" && prev !== undefined && prev.role !== "system") {
      return reject(`Unexpected role 'system' after role '${prev.role}'`);
    }
    if (m.role === "assistant" && m.tool_calls?.length) {
      let results = 0;
      while (messages[i + 1 + results]?.role === "tool") results++;
      if (results !== m.tool_calls.length) return reject("Not the same number of function calls and responses");
    }
  }
  if (messages.at(-1)?.role === "assistant")
    return reject("Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant");
  return undefined;
}

// Mistral's ids: 9 alphanumerics.
const callId = (n: number) => `c${String(n).padStart(8, "0")}`;

export const mistral: ProviderApi = {
  name: "mistral",
  newLedger: NO_LEDGER,
  route: (path, body) => (path === "/mistral/v1/chat/completions" ? { stream: body.stream === true } : undefined),
  validate: mistralError,
  lastTurn: chatLastTurn,
  json: (reply, { nextId }) => chatCompletion(reply, MODEL, callId, nextId),
  stream: (reply, { nextId }) => chatCompletionChunks(reply, MODEL, callId, nextId),
};
