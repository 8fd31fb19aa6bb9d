// The middleware applies the rules of the provider each request goes to: which provider a chat model calls, for
// the real LangChain clients, bound with tools, given fallbacks, or given to createAgent by name (initChatModel).
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { initChatModel } from "langchain";
import { describe, expect, it } from "vitest";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { sanitizeMessagesMiddleware } from "../../src/middleware/index.js";
import { providerOfModel } from "../../src/middleware/model-provider.js";
import { chatModel, CLIENTS } from "../support/provider-emulator/index.js";

// No request is sent: the models are only built. The URL is a closed local port.
const URL = "http://127.0.0.1:9";
const EXPECTED = {
  anthropic: "anthropic",
  openai: "openai",
  "openai-responses": "openai",
  gemini: "gemini",
  bedrock: "bedrock",
  mistral: "mistral",
} as const;

describe("the provider a chat model calls", () => {
  it.each(CLIENTS)("%s: the client, bound with tools, and with a fallback", (client) => {
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
