/** The chat-completions wire format that OpenAI and Mistral share: messages in, a choice or SSE chunks out. */
import { sse, type StreamedReply } from "./server.js";
import { argsText, splitText, type LastTurn, type ScriptedReply } from "./script.js";

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

export const chatMessages = (body: Record<string, unknown>) => (body.messages ?? []) as ChatMessage[];

/** Text of a chat message's content (a string, or text parts). */
export const chatText = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p: { type?: string; text?: string }) => (p.type === "text" ? (p.text ?? "") : "")).join("")
      : "";

export function chatLastTurn(body: Record<string, unknown>): LastTurn {
  const last = chatMessages(body).at(-1);
  if (!last) return { role: "none", text: "" };
  const role = last.role === "user" || last.role === "tool" || last.role === "assistant" ? last.role : "none";
  return { role, text: chatText(last.content) };
}

function toolCalls(reply: ScriptedReply, callId: (n: number) => string, nextId: () => number) {
  return (reply.calls ?? []).map((call) => ({
    id: callId(nextId()),
    type: "function",
    function: { name: call.name, arguments: argsText(call) },
  }));
}

/** A `chat.completion` object. */
export function chatCompletion(
  reply: ScriptedReply,
  model: string,
  callId: (n: number) => string,
  nextId: () => number,
) {
  const calls = toolCalls(reply, callId, nextId);
  return {
    id: `chatcmpl-${nextId()}`,
    object: "chat.completion",
    created: 1,
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: reply.text ?? "", ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/**
 * `chat.completion.chunk` SSE frames, ending in `[DONE]`; the usage comes in a last chunk with no choices, as
 * OpenAI's `stream_options.include_usage` sends it, unless `usageChunk` is false (Cerebras puts it on the finish).
 */
export function chatCompletionChunks(
  reply: ScriptedReply,
  model: string,
  callId: (n: number) => string,
  nextId: () => number,
  usageChunk = true,
): StreamedReply {
  const id = `chatcmpl-${nextId()}`;
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    sse({ id, object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason }] });
  const calls = toolCalls(reply, callId, nextId);
  const frames = [
    chunk({ role: "assistant", content: "" }),
    ...splitText(reply.text ?? "").map((word) => chunk({ content: word })),
    ...calls.map((call, index) => chunk({ tool_calls: [{ index, ...call }] })),
    chunk({}, calls.length > 0 ? "tool_calls" : "stop"),
    ...(usageChunk
      ? [
          sse({
            id,
            object: "chat.completion.chunk",
            created: 1,
            model,
            choices: [],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        ]
      : []),
    "data: [DONE]\n\n",
  ];
  return { contentType: "text/event-stream", frames, cuts: { text: 2 } };
}
