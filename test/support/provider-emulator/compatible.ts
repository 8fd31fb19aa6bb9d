/**
 * The OpenAI-compatible Chat Completions APIs of Groq, DeepSeek, xAI and Cerebras, each at its own path: OpenAI's
 * rules on calls and results (their errors are OpenAI's texts), and each provider's own history rules on top.
 *
 * - Groq (`/groq/openai/v1/chat/completions`): no role-order rule. Its 400s name message fields ("'messages.1' : for
 *   'role:assistant' the following must be satisfied[…]"), which ChatGroq sends as Groq takes them.
 * - DeepSeek (`/deepseek/chat/completions`): "deepseek-reasoner does not support successive user or assistant
 *   messages (messages[1] and messages[2] in your input)" (DeepSeek-R1#21) and "The last message of
 *   deepseek-reasoner must be a user message, or an assistant message with prefix mode on" (litellm#8090), strict
 *   for every model; in thinking mode (`deepseek-reasoner`, or `thinking: { type: "enabled" }`) a reply with calls
 *   needs its `reasoning_content` back ("Missing `reasoning_content` field in the assistant message at message index
 *   2", opencode#9397; api-docs.deepseek.com/guides/thinking_mode#tool-calls).
 * - xAI (`/xai/v1/chat/completions`): no role-order rule reported.
 * - Cerebras (`/cerebras/v1/chat/completions`): no role-order rule reported; its 400s are on unknown message
 *   properties ("'messages.2.assistant.reasoning_content' is unsupported", code wrong_api_format).
 * - OpenRouter (`/openrouter/api/v1/chat/completions`), for a model whose provider takes any order (Llama): what
 *   OpenAI takes. A model of Anthropic, Google, Mistral or DeepSeek there follows its maker's rules (OpenRouter's
 *   model families in PROVIDERS).
 * - Perplexity (`/perplexity/chat/completions`, as the OpenAI SDK calls `https://api.perplexity.ai`): system messages
 *   only first, then user or tool messages alternating with assistant messages, starting with the user's ("After the
 *   (optional) system message(s), user or tool message(s) should alternate with assistant message(s).",
 *   pluely#71, raycast/extensions#23957; before tool messages were taken, "…user and assistant roles should be
 *   alternating.", perplexityai/api-discussion#265, and a system message not first, edenai-apis#144), strict where
 *   the text leaves it open (a user message right after tool results is refused; a run of tool results, the answers
 *   to one reply's calls, is one turn), and the request ends on the user or on tool results ("Last message must have
 *   role `user`.", litellm#3918).
 */
import {
  chatCompletion,
  chatCompletionChunks,
  chatLastTurn,
  chatMessages,
  type ChatMessage,
} from "./chat-completions.js";
import { openAiChatError } from "./openai-chat.js";
import { NO_LEDGER, type ProviderApi } from "./server.js";
import type { Rejection } from "./script.js";

type Rules = (messages: ChatMessage[], body: Record<string, unknown>) => Rejection | undefined;

const reject = (message: string): Rejection => ({
  status: 400,
  body: { error: { message, type: "invalid_request_error", param: null, code: "invalid_request_error" } },
});

/**
 * An OpenAI-compatible API named `name`, at `path`, answering as `model`, with its own `rules` after OpenAI's;
 * `usageChunk` as in `chatCompletionChunks`.
 */
function compatibleApi(name: string, path: string, model: string, rules?: Rules, usageChunk = true): ProviderApi {
  const callId = (n: number) => `call_${name}_${n}`;
  return {
    name,
    newLedger: NO_LEDGER,
    route: (at, body) => (at === path ? { stream: body.stream === true } : undefined),
    validate: (body) => openAiChatError(body) ?? rules?.(chatMessages(body), body),
    lastTurn: chatLastTurn,
    json: (reply, { nextId }) => chatCompletion(reply, model, callId, nextId),
    stream: (reply, { nextId }) => chatCompletionChunks(reply, model, callId, nextId, usageChunk),
  };
}

const inThinkingMode = (body: Record<string, unknown>) =>
  body.model === "deepseek-reasoner" || (body.thinking as { type?: unknown } | undefined)?.type === "enabled";

function deepSeekError(messages: ChatMessage[], body: Record<string, unknown>): Rejection | undefined {
  for (let i = 1; i < messages.length; i++) {
    const [prev, m] = [messages[i - 1]!.role, messages[i]!.role];
    if (m === prev && (m === "user" || m === "assistant")) {
      return reject(
        `deepseek-reasoner does not support successive user or assistant messages (messages[${i - 1}] and ` +
          `messages[${i}] in your input). You should interleave the user/assistant messages in the message sequence.`,
      );
    }
  }
  if (inThinkingMode(body)) {
    const missing = messages.findIndex(
      (m) => m.role === "assistant" && m.tool_calls?.length && !("reasoning_content" in m),
    );
    if (missing >= 0) {
      return reject(
        `Missing \`reasoning_content\` field in the assistant message at message index ${missing}. For more ` +
          "information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
      );
    }
  }
  if (messages.at(-1)?.role === "assistant") {
    return reject(
      "The last message of deepseek-reasoner must be a user message, or an assistant message with prefix mode on " +
        "(refer to https://api-docs.deepseek.com/guides/chat_prefix_completion).",
    );
  }
  return undefined;
}

const perplexityReject = (message: string): Rejection => ({
  status: 400,
  body: { error: { message, type: "invalid_message", code: 400 } },
});

function perplexityError(messages: ChatMessage[]): Rejection | undefined {
  const first = messages.findIndex((m) => m.role !== "system");
  for (let i = Math.max(first, 0); i < messages.length; i++) {
    const [prev, role] = [i > first ? messages[i - 1]!.role : undefined, messages[i]!.role];
    const alternates =
      role === "assistant"
        ? prev === "user" || prev === "tool"
        : role === "user"
          ? prev === undefined || prev === "assistant"
          : role === "tool" && (prev === "assistant" || prev === "tool");
    if (!alternates) {
      return perplexityReject(
        "After the (optional) system message(s), user or tool message(s) should alternate with assistant message(s).",
      );
    }
  }
  if (messages.at(-1)?.role === "assistant") return perplexityReject("Last message must have role `user`.");
  return undefined;
}

export const groq = compatibleApi("groq", "/groq/openai/v1/chat/completions", "llama-3.3-70b-versatile");
export const deepseek = compatibleApi("deepseek", "/deepseek/chat/completions", "deepseek-chat", deepSeekError);
export const xai = compatibleApi("xai", "/xai/v1/chat/completions", "grok-4");
export const cerebras = compatibleApi("cerebras", "/cerebras/v1/chat/completions", "llama-3.3-70b", undefined, false);
export const openrouter = compatibleApi(
  "openrouter",
  "/openrouter/api/v1/chat/completions",
  "meta-llama/llama-3.3-70b-instruct",
);
export const perplexity = compatibleApi("perplexity", "/perplexity/chat/completions", "sonar-pro", perplexityError);
