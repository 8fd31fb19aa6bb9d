/**
 * Vertex AI, as ChatVertexAI calls it with a project (the emulator serves these routes over HTTPS too, as the client
 * builds `https://<endpoint>/…` URLs):
 *
 * - Gemini (`POST /v1/projects/<project>/locations/<location>/publishers/google/models/<model>:generateContent`, and
 *   `:streamGenerateContent`): the Gemini API's contents rules and errors (gemini.ts; Vertex words "First content
 *   should be with role 'user', got model" so). Without `?alt=sse` Vertex streams one JSON array of responses.
 * - Claude (`…/publishers/anthropic/models/<model>:rawPredict`, and `:streamRawPredict`): Anthropic's Messages API
 *   behind Vertex's endpoint, so Anthropic's rules and errors (anthropic.ts) and its SSE events. The model is named
 *   by the path, not the body, and the body names Vertex's API version instead
 *   (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude: `"anthropic_version":
 *   "vertex-2023-10-16"`).
 */
import { anthropic } from "./anthropic.js";
import { geminiChunks, geminiError, geminiLastTurn, geminiResponse, type GeminiLedger } from "./gemini.js";
import type { ProviderApi } from "./server.js";

const VERTEX_MODEL = /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/([^/]+)\/models\/([^:/]+):(\w+)$/;

/** The publisher, model and method a Vertex path names. */
const parse = (path: string) => {
  const [, publisher, model, method] = VERTEX_MODEL.exec(path) ?? [];
  return { publisher, model, method };
};

export const vertex: ProviderApi<GeminiLedger> = {
  name: "vertex",
  newLedger: () => new Map(),
  route: (path) => {
    const { publisher, method } = parse(path);
    if (publisher !== "google" || (method !== "generateContent" && method !== "streamGenerateContent")) return;
    return { stream: method === "streamGenerateContent" };
  },
  validate: geminiError,
  lastTurn: geminiLastTurn,
  json: geminiResponse,
  // One JSON array, written as its elements come: `[{…}`, `,\r\n{…}`, …, `]`.
  stream: (reply, issue) => {
    const chunks = geminiChunks(reply, issue).map((chunk, i) => `${i === 0 ? "[" : ",\r\n"}${JSON.stringify(chunk)}`);
    return { contentType: "application/json", frames: [...chunks, "]"], cuts: { text: 1 } };
  },
};

type AnthropicLedger = ReturnType<typeof anthropic.newLedger>;
/** The request as the Messages API would take it: the model the path names. */
const withModel = (body: Record<string, unknown>, path: string) => ({ ...body, model: parse(path).model });

export const vertexClaude: ProviderApi<AnthropicLedger> = {
  name: "vertex-claude",
  newLedger: anthropic.newLedger,
  route: (path) => {
    const { publisher, method } = parse(path);
    if (publisher !== "anthropic" || (method !== "rawPredict" && method !== "streamRawPredict")) return;
    return { stream: method === "streamRawPredict" };
  },
  validate: (body, ledger, path) => {
    if (body.anthropic_version !== "vertex-2023-10-16") {
      return {
        status: 400,
        body: {
          type: "error",
          error: { type: "invalid_request_error", message: "anthropic_version: Input should be 'vertex-2023-10-16'" },
        },
      };
    }
    return anthropic.validate(withModel(body, path), ledger, path);
  },
  lastTurn: anthropic.lastTurn,
  json: (reply, issue) => anthropic.json(reply, { ...issue, body: withModel(issue.body, issue.path) }),
  stream: (reply, issue) => anthropic.stream(reply, { ...issue, body: withModel(issue.body, issue.path) }),
};
