/** The real LangChain provider clients, each pointed at the emulator with dummy keys and no retries. */
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatBedrockConverse } from "@langchain/aws";
import { ChatCerebras } from "@langchain/cerebras";
import { ChatCohere } from "@langchain/cohere";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatDeepSeek } from "@langchain/deepseek";
import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import { ChatGroq } from "@langchain/groq";
import { ChatMistralAI } from "@langchain/mistralai";
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI } from "@langchain/openai";
import { ChatXAI } from "@langchain/xai";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { CohereClient } from "cohere-ai";

/** Each client, and ChatOpenAI a second time on the Responses API. Names match the emulator's modules. */
export const CLIENTS = ["anthropic", "openai", "openai-responses", "gemini", "bedrock", "mistral"] as const;
/** The clients of the providers added after the first six, and ChatOpenAI pointed at OpenRouter. */
export const MORE_CLIENTS = ["groq", "ollama", "cohere", "deepseek", "xai", "cerebras", "openrouter"] as const;
export type Client = (typeof CLIENTS)[number];
export type AnyClient = Client | (typeof MORE_CLIENTS)[number];

const apiKey = "test-key";
const region = "us-east-1";
const credentials = { accessKeyId: "test", secretAccessKey: "test" };

/** The `client` chat model, talking to the emulator at `url`, for its usual model or `model`. */
export function chatModel(client: AnyClient, url: string, model?: string): BaseChatModel {
  switch (client) {
    case "anthropic":
      return new ChatAnthropic({
        model: model ?? "claude-sonnet-4-5",
        apiKey,
        anthropicApiUrl: `${url}/anthropic`,
        maxRetries: 0,
      });
    case "openai":
    case "openai-responses":
      return new ChatOpenAI({
        model: model ?? (client === "openai" ? "gpt-4o-mini" : "gpt-5-mini"),
        apiKey,
        configuration: { baseURL: `${url}/openai/v1` },
        useResponsesApi: client === "openai-responses",
        // As chat apps configure it; this path estimates token usage with tiktoken (stubbed by the network guard).
        // (An explicit `streaming: false` would turn token streaming off even under streamMode "messages".)
        ...(client === "openai" ? { streaming: true } : {}),
        maxRetries: 0,
      });
    case "gemini":
      return new ChatGoogleGenerativeAI({
        model: model ?? "gemini-2.5-flash",
        apiKey,
        baseUrl: `${url}/gemini`,
        maxRetries: 0,
      });
    case "bedrock":
      // ChatBedrockConverse's own endpoint option forces https: hand it a client bound to the emulator.
      return new ChatBedrockConverse({
        model: model ?? "anthropic.claude-sonnet-4-5-v1:0",
        region,
        credentials,
        client: new BedrockRuntimeClient({
          region,
          credentials,
          endpoint: url,
          requestHandler: new NodeHttpHandler(),
          maxAttempts: 1,
        }),
        maxRetries: 0,
      });
    case "mistral":
      return new ChatMistralAI({
        model: model ?? "mistral-large-latest",
        apiKey,
        serverURL: `${url}/mistral`,
        maxRetries: 0,
      });
    case "groq":
      return new ChatGroq({ model: model ?? "llama-3.3-70b-versatile", apiKey, baseUrl: `${url}/groq`, maxRetries: 0 });
    case "ollama":
      return new ChatOllama({ model: model ?? "llama3.2", baseUrl: `${url}/ollama`, maxRetries: 0 });
    case "cohere":
      // ChatCohere takes a client: Cohere's own, pointed at the emulator.
      return new ChatCohere({
        model: model ?? "command-a-03-2025",
        client: new CohereClient({ token: apiKey, environment: `${url}/cohere` }),
        maxRetries: 0,
      });
    case "deepseek":
      return new ChatDeepSeek({
        model: model ?? "deepseek-chat",
        apiKey,
        configuration: { baseURL: `${url}/deepseek` },
        maxRetries: 0,
      });
    case "xai":
      return new ChatXAI({ model: model ?? "grok-4", apiKey, baseURL: `${url}/xai/v1`, maxRetries: 0 });
    case "cerebras":
      // ChatCerebras takes no base URL: its `fetch` sends the SDK's requests to the emulator instead.
      return new ChatCerebras({
        model: model ?? "llama-3.3-70b",
        apiKey,
        fetch: (input: RequestInfo | URL, init?: RequestInit) =>
          fetch(String(input).replace("https://api.cerebras.ai", `${url}/cerebras`), init),
        maxRetries: 0,
      });
    case "openrouter":
      // An OpenAI-compatible server through ChatOpenAI; the emulator answers as OpenRouter's Chat Completions.
      return new ChatOpenAI({
        model: model ?? "meta-llama/llama-3.3-70b-instruct",
        apiKey,
        configuration: { baseURL: `${url}/openrouter/api/v1` },
        maxRetries: 0,
      });
  }
}
