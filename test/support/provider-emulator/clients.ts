/** The real LangChain provider clients, each pointed at the emulator with dummy keys and no retries. */
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatBedrockConverse } from "@langchain/aws";
import { ChatCerebras } from "@langchain/cerebras";
import { ChatCohere } from "@langchain/cohere";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatDeepSeek } from "@langchain/deepseek";
import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import { ChatVertexAI } from "@langchain/google-vertexai";
import { ChatGroq } from "@langchain/groq";
import { ChatMistralAI } from "@langchain/mistralai";
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI } from "@langchain/openai";
import { ChatXAI } from "@langchain/xai";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { CohereClient } from "cohere-ai";
import { Agent } from "node:https";
import type { ProviderEmulator } from "./server.js";

/** Each client, and ChatOpenAI a second time on the Responses API. Names match the emulator's modules. */
export const CLIENTS = ["anthropic", "openai", "openai-responses", "gemini", "bedrock", "mistral"] as const;
/**
 * The clients of the providers added after the first six, ChatOpenAI pointed at OpenRouter and at Perplexity, and
 * ChatVertexAI twice: on Gemini, and on Claude (`vertex-claude`).
 */
export const MORE_CLIENTS = [
  "groq",
  "ollama",
  "cohere",
  "deepseek",
  "xai",
  "cerebras",
  "openrouter",
  "perplexity",
  "vertex",
  "vertex-claude",
] as const;
export type Client = (typeof CLIENTS)[number];
export type AnyClient = Client | (typeof MORE_CLIENTS)[number];

const apiKey = "test-key";
const region = "us-east-1";
const credentials = { accessKeyId: "test", secretAccessKey: "test" };

/**
 * Where a client finds the emulator: the emulator (its URL, and its HTTPS side for ChatVertexAI), or a URL alone, for
 * models that are only built (a Vertex client then has no certificate to trust and could send nothing).
 */
export type EmulatorAt = string | Pick<ProviderEmulator, "url" | "tls">;

/**
 * ChatVertexAI pointed at the emulator's HTTPS side, sending nothing the emulator does not answer. The client builds
 * `https://${endpoint}/v1/projects/${project}/locations/…` (its `apiKey` option would switch to express mode,
 * whose host, aiplatform.googleapis.com, is hard-coded), and sends it through google-auth-library (`authOptions`):
 * - its own API-key credential (`authOptions.apiKey`: the `X-Goog-Api-Key` header) fetches no OAuth token;
 * - `projectId` is given, so no metadata server or gcloud is asked for one;
 * - its transport (gaxios, over node-fetch: not the global `fetch` the network guard watches) trusts the emulator's
 *   self-signed certificate through an https.Agent with it as the only CA, so it could reach no other HTTPS host.
 */
function vertexModel(at: EmulatorAt, model: string): BaseChatModel {
  const tls = typeof at === "string" ? { endpoint: new URL(at).host, ca: undefined } : at.tls;
  return new ChatVertexAI({
    model,
    endpoint: tls.endpoint,
    authOptions: {
      apiKey,
      projectId: "test-project",
      clientOptions: { transporterOptions: { agent: new Agent({ ca: tls.ca }) } },
    },
    maxRetries: 0,
  });
}

/** The `client` chat model, talking to the emulator `at`, for its usual model or `model`. */
export function chatModel(client: AnyClient, at: EmulatorAt, model?: string): BaseChatModel {
  const url = typeof at === "string" ? at : at.url;
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
    case "perplexity":
      // Perplexity's Chat Completions through ChatOpenAI, pointed at its host as its docs show the OpenAI SDK (which is
      // how the middleware knows it); the SDK's `fetch` sends those requests to the emulator instead.
      return new ChatOpenAI({
        model: model ?? "sonar-pro",
        apiKey,
        configuration: {
          baseURL: "https://api.perplexity.ai",
          fetch: (input: RequestInfo | URL, init?: RequestInit) =>
            fetch(String(input).replace("https://api.perplexity.ai", `${url}/perplexity`), init),
        },
        maxRetries: 0,
      });
    case "vertex":
      return vertexModel(at, model ?? "gemini-2.5-flash");
    case "vertex-claude":
      // Vertex names a Claude model with its version after `@`.
      return vertexModel(at, model ?? "claude-sonnet-4-5@20250929");
  }
}
