/**
 * A local stand-in for the providers' HTTP APIs, for tests that drive the real LangChain
 * clients: it answers from a script and rejects what each provider's history rules reject, with
 * the provider's status and error text.
 */
import { anthropic } from "./anthropic.js";
import { bedrock } from "./bedrock.js";
import { cohere } from "./cohere.js";
import { cerebras, deepseek, groq, openrouter, perplexity, xai } from "./compatible.js";
import { gemini } from "./gemini.js";
import { mistral } from "./mistral.js";
import { ollama } from "./ollama.js";
import { openAiChat } from "./openai-chat.js";
import { openAiResponses } from "./openai-responses.js";
import { ProviderEmulator } from "./server.js";
import { vertex, vertexClaude } from "./vertex.js";

export { CLIENTS, MORE_CLIENTS, chatModel, type AnyClient, type Client } from "./clients.js";
export type { LastTurn, Script, ScriptedCall, ScriptedReply } from "./script.js";
export type { ProviderEmulator, RecordedRequest, TlsEndpoint } from "./server.js";

/** Starts an emulator of every provider API on 127.0.0.1 (a free port). Close it after the tests. */
export const startEmulator = () =>
  ProviderEmulator.start([
    openAiChat,
    openAiResponses,
    anthropic,
    gemini,
    bedrock,
    mistral,
    groq,
    ollama,
    cohere,
    deepseek,
    xai,
    cerebras,
    openrouter,
    perplexity,
    vertex,
    vertexClaude,
  ]);
