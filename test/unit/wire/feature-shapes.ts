/**
 * What the newest provider features leave in a stored history, made the way apps make it: real LangChain clients on
 * the emulator, a partial reply kept when the user pressed stop (concatenated stream chunks, as chat apps keep them),
 * a fallback model's reply, a tool that returned nothing, an empty send, a summary left as a SystemMessage.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from "@langchain/core/messages";
import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import { ChatOpenAI } from "@langchain/openai";
import type { ProviderEmulator, ScriptedReply } from "../../support/provider-emulator/index.js";
import { FIRST_QUESTION } from "../../support/graphs/scenarios.js";

const apiKey = "test-key";

/** ChatAnthropic on the emulator, for `model`, with the web search and web fetch server tools bound. */
export function anthropicWithServerTools(url: string, model = "claude-sonnet-4-5", thinking = false) {
  return new ChatAnthropic({
    model,
    apiKey,
    anthropicApiUrl: `${url}/anthropic`,
    maxRetries: 0,
    ...(thinking ? { maxTokens: 2048, thinking: { type: "enabled" as const, budget_tokens: 1024 } } : {}),
  }).bindTools([
    { type: "web_search_20250305", name: "web_search", max_uses: 3 },
    { type: "web_fetch_20250910", name: "web_fetch", max_uses: 3 },
  ]);
}

/** ChatOpenAI on the Responses API, on the emulator; `zdrEnabled` has OpenAI keep nothing (`store: false`). */
export const responsesModel = (url: string, zdrEnabled = false) =>
  new ChatOpenAI({
    model: "gpt-5-mini",
    apiKey,
    configuration: { baseURL: `${url}/openai/v1` },
    useResponsesApi: true,
    zdrEnabled,
    maxRetries: 0,
  });

/** ChatGoogleGenerativeAI on the emulator for a Gemini 3 model, by the alias that names it. */
export const gemini3Model = (url: string) =>
  new ChatGoogleGenerativeAI({ model: "gemini-flash-latest", apiKey, baseUrl: `${url}/gemini`, maxRetries: 0 });

/** The first question, and what `model` answered it with (`reply` scripted). */
export async function firstTurn(
  emulator: ProviderEmulator,
  model: Pick<BaseChatModel, "invoke">,
  reply: ScriptedReply,
): Promise<BaseMessage[]> {
  const question = new HumanMessage({ id: "h1", content: FIRST_QUESTION });
  const script = emulator.script;
  emulator.script = () => reply;
  try {
    return [question, await model.invoke([question])];
  } finally {
    emulator.script = script;
  }
}

/**
 * The first question, and the reply `model` was streaming when the user pressed stop, kept as the chunks so far: the
 * reply is cut where `reply.hang` says, and the stream is stopped once `reached` sees that part arrive.
 */
export async function stoppedTurn(
  emulator: ProviderEmulator,
  model: Pick<BaseChatModel, "stream">,
  reply: ScriptedReply,
  reached: (partial: AIMessageChunk) => boolean,
): Promise<BaseMessage[]> {
  const question = new HumanMessage({ id: "h1", content: FIRST_QUESTION });
  const script = emulator.script;
  emulator.script = () => reply;
  const stop = new AbortController();
  let partial: AIMessageChunk | undefined;
  try {
    for await (const chunk of await model.stream([question], { signal: stop.signal })) {
      partial = partial === undefined ? (chunk as AIMessageChunk) : partial.concat(chunk as AIMessageChunk);
      if (reached(partial)) stop.abort();
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    emulator.script = script;
  }
  if (partial === undefined || !reached(partial)) throw new Error("the stream stopped before the part it was cut at");
  return [question, partial];
}

/** Whether a partial reply's content holds a block of `type`, with `text` when given. */
export const holds =
  (type: string, text?: string) =>
  (partial: AIMessageChunk): boolean =>
    Array.isArray(partial.content) &&
    partial.content.some((b) => b.type === type && (text === undefined || JSON.stringify(b).includes(text)));

/** A finished turn whose tool returned nothing, and failed: its result is empty, with status error. */
export const emptyErrorResult = (): BaseMessage[] => [
  new HumanMessage({ id: "h1", content: FIRST_QUESTION }),
  new AIMessage({
    id: "a1",
    content: "",
    tool_calls: [{ id: "call_1", name: "search", args: { city: "Paris" }, type: "tool_call" }],
  }),
  new ToolMessage({ id: "t1", content: "", tool_call_id: "call_1", name: "search", status: "error" }),
  new AIMessage({ id: "a2", content: "The search returned nothing." }),
];

/** A finished turn the user started with an empty send. */
export const emptySend = (): BaseMessage[] => [
  new HumanMessage({ id: "h1", content: "" }),
  new AIMessage({ id: "a1", content: "Did you mean to ask something?" }),
];

/** A conversation a summarization step left a SystemMessage in, after the turns it summed up. */
export const summaryMidHistory = (): BaseMessage[] => [
  new HumanMessage({ id: "h1", content: FIRST_QUESTION }),
  new AIMessage({ id: "a1", content: "Paris is 15°C." }),
  new SystemMessage({ id: "summary", content: "Summary so far: the user asked about the weather in Paris." }),
  new HumanMessage({ id: "h2", content: "And Seoul?" }),
  new AIMessage({ id: "a2", content: "Seoul is 12°C." }),
];
