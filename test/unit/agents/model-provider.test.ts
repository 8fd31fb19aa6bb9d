// The middleware applies the rules of the provider each request goes to: which provider a chat model calls, for
// the real LangChain clients, bound with tools, given fallbacks, or given to createAgent by name (initChatModel).
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { ChatVertexAI } from "@langchain/google-vertexai";
import { ChatOpenAI } from "@langchain/openai";
import { initChatModel } from "langchain";
import { ConfigurableModel } from "langchain/chat_models/universal";
import { describe, expect, it } from "vitest";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { sanitizeMessagesMiddleware } from "../../../src/middleware/index.js";
import { modelNameOf, providerOfModel } from "../../../src/middleware/model-provider.js";
import { chatModel, CLIENTS, MORE_CLIENTS } from "../../support/provider-emulator/index.js";

// No request is sent: the models are only built. The URL is a closed local port.
const URL = "http://127.0.0.1:9";
const EXPECTED = {
  anthropic: "anthropic",
  openai: "openai",
  "openai-responses": "openai",
  gemini: "gemini",
  bedrock: "bedrock",
  mistral: "mistral",
  groq: "groq",
  ollama: "ollama",
  cohere: "cohere",
  deepseek: "deepseek",
  xai: "xai",
  cerebras: "cerebras",
  // ChatOpenAI pointed at a server of no known host takes what OpenAI takes.
  openrouter: "openai",
  // ChatOpenAI pointed at https://api.perplexity.ai (its fetch goes to the emulator).
  perplexity: "perplexity",
  vertex: "vertex",
  "vertex-claude": "vertex",
} as const;

describe("the provider a chat model calls", () => {
  it.each([...CLIENTS, ...MORE_CLIENTS])("%s: the client, bound with tools, and with a fallback", (client) => {
    const model = chatModel(client, URL);
    expect(providerOfModel(model)).toBe(EXPECTED[client]);
    const tool = { type: "function", function: { name: "search", parameters: { type: "object", properties: {} } } };
    expect(providerOfModel(model.bindTools!([tool]))).toBe(EXPECTED[client]);
    expect(providerOfModel(model.withFallbacks([new FakeListChatModel({ responses: ["x"] })]))).toBe(EXPECTED[client]);
  });

  it.each([
    ["anthropic:claude-sonnet-4-5", "anthropic"],
    ["google-genai:gemini-2.5-flash", "gemini"],
    ["bedrock:anthropic.claude-sonnet-4-5-v1:0", "bedrock"],
    ["mistralai:mistral-large-latest", "mistral"],
    ["openai:gpt-4o-mini", "openai"],
  ])("a model given by name, %s", async (name, provider) => {
    // Bedrock's client wants a region and credentials when built; the others ignore them.
    const settings = { apiKey: "test", region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "y" } };
    expect(providerOfModel(await initChatModel(name, settings))).toBe(provider);
  });

  it.each([
    ["api.groq.com/openai/v1", "groq"],
    ["api.deepseek.com", "deepseek"],
    ["api.x.ai/v1", "xai"],
    ["api.cerebras.ai/v1", "cerebras"],
    ["openrouter.ai/api/v1", "openrouter"],
    ["api.perplexity.ai", "perplexity"],
    ["api.together.xyz/v1", "openai"],
  ])("ChatOpenAI pointed at https://%s", (host, provider) => {
    const model = new ChatOpenAI({ model: "m", apiKey: "k", configuration: { baseURL: `https://${host}` } });
    expect(providerOfModel(model.bindTools([]))).toBe(provider);
  });

  it("ChatOpenAI pointed at Ollama's OpenAI-compatible endpoint, on its port", () => {
    const model = new ChatOpenAI({ model: "m", apiKey: "k", configuration: { baseURL: "http://gpu-box:11434/v1" } });
    expect(providerOfModel(model)).toBe("ollama");
  });

  it("ChatVertexAI, for Gemini and for Claude on Vertex AI", () => {
    expect(providerOfModel(new ChatVertexAI({ model: "gemini-2.5-flash", apiKey: "k" }))).toBe("vertex");
    expect(providerOfModel(new ChatVertexAI({ model: "claude-sonnet-4-5@20250929", apiKey: "k" }))).toBe("vertex");
  });

  it.each([
    ["groq:llama-3.3-70b-versatile", "groq"],
    ["ollama:llama3.2", "ollama"],
    ["cohere:command-a-03-2025", "cohere"],
    ["deepseek:deepseek-chat", "deepseek"],
    ["xai:grok-4", "xai"],
    ["cerebras:llama-3.3-70b", "cerebras"],
    ["google-vertexai:gemini-2.5-flash", "vertex"],
  ])("a model given by name, %s", async (name, provider) => {
    expect(providerOfModel(await initChatModel(name, { apiKey: "test" }))).toBe(provider);
  });

  it("Perplexity's own client and a Perplexity model given by name, neither installed here", () => {
    // ChatPerplexity (@langchain/perplexity, @langchain/community) names itself so: a stand-in with its type.
    class ChatPerplexity extends FakeListChatModel {
      override _llmType() {
        return "perplexity";
      }
    }
    expect(providerOfModel(new ChatPerplexity({ responses: ["x"] }))).toBe("perplexity");
    // What initChatModel("perplexity:sonar-pro") builds, before it imports the client.
    const named = new ConfigurableModel({ defaultConfig: { modelProvider: "perplexity", model: "sonar-pro" } });
    expect(providerOfModel(named)).toBe("perplexity");
    expect(modelNameOf(named)).toBe("sonar-pro");
  });

  it("a model of a provider it does not know: none (the middleware then repairs as the checkpointer does by default)", () => {
    expect(providerOfModel(new FakeListChatModel({ responses: ["x"] }))).toBeUndefined();
    expect(providerOfModel(undefined)).toBeUndefined();
  });

  it("the middleware applies the rules of the provider it calls, and none to a model it cannot place", async () => {
    type Wrap = (request: unknown, handler: (request: { messages: BaseMessage[] }) => unknown) => Promise<unknown>;
    const wrap = sanitizeMessagesMiddleware().wrapModelCall as unknown as Wrap;
    const sent = async (model: unknown) => {
      const messages = [
        new HumanMessage({ id: "h1", content: "<document>" }),
        new HumanMessage({ id: "h2", content: "?" }),
      ];
      return (await wrap({ messages, model, runtime: { configurable: {} } }, (r) => r.messages)) as BaseMessage[];
    };
    expect((await sent(chatModel("openai", URL))).map((m) => m.type)).toEqual(["human", "human"]);
    expect((await sent(chatModel("bedrock", URL))).map((m) => m.type)).toEqual(["human", "ai", "human"]);
    expect((await sent(new FakeListChatModel({ responses: ["x"] }))).map((m) => m.type)).toEqual(["human", "human"]);
  });
});
