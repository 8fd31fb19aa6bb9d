/**
 * Gemini API (`POST /gemini/v1beta/models/<model>:generateContent`, and `:streamGenerateContent?alt=sse`).
 *
 * History rules, from https://ai.google.dev/gemini-api/docs/function-calling (the model's
 * `functionCall` turn is answered by one turn holding a `functionResponse` part per call) and the
 * API's 400 `INVALID_ARGUMENT` texts; alternation is the rule the design brief records for Gemini
 * ("Please ensure that multiturn requests alternate between user and model."). Calls carry no id
 * on the wire: they are paired by count and position, so id rules cannot apply.
 */
import { sse, type ProviderApi } from "./server.js";
import { splitText, type LastTurn, type Rejection, type ScriptedReply } from "./script.js";

interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: unknown;
  functionResponse?: unknown;
  thoughtSignature?: string;
}
interface Content {
  role: string;
  parts: Part[];
}

const reject = (message: string): Rejection => ({
  status: 400,
  body: { error: { code: 400, message, status: "INVALID_ARGUMENT" } },
});
const count = (c: Content | undefined, key: "functionCall" | "functionResponse") =>
  c?.parts.filter((p) => p[key]).length ?? 0;

export function geminiError(body: Record<string, unknown>): Rejection | undefined {
  const contents = (body.contents ?? []) as Content[];
  // The user speaks first: the error users report for a trimmed history (chatbot-ui#1656), as Vertex words it.
  if (contents[0] && contents[0].role !== "user") return reject("First content should be with role 'user', got model");
  for (const [i, c] of contents.entries()) {
    const prev = contents[i - 1];
    if (c.parts.length === 0)
      return reject(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`);
    const responses = count(c, "functionResponse");
    if (responses > 0 && count(prev, "functionCall") === 0) {
      return reject("Please ensure that function response turn comes immediately after a function call turn.");
    }
    if (count(prev, "functionCall") !== responses && count(prev, "functionCall") > 0) {
      return reject(
        "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
      );
    }
    if (count(c, "functionCall") > 0 && prev?.role !== "user") {
      return reject(
        "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
      );
    }
    if (prev?.role === c.role) return reject("Please ensure that multiturn requests alternate between user and model.");
  }
  return undefined;
}

function lastTurn(body: Record<string, unknown>): LastTurn {
  const last = ((body.contents ?? []) as Content[]).at(-1);
  if (!last) return { role: "none", text: "" };
  if (count(last, "functionResponse") > 0) return { role: "tool", text: "" };
  return { role: last.role === "model" ? "assistant" : "user", text: last.parts.map((p) => p.text ?? "").join("") };
}

const thought = (reply: ScriptedReply, nextId: () => number): Part[] =>
  reply.thinking ? [{ text: reply.thinking, thought: true, thoughtSignature: `sig-${nextId()}` }] : [];
// Calls are signed when the model thinks, as Gemini 3 signs them.
const calls = (reply: ScriptedReply, nextId: () => number): Part[] =>
  (reply.calls ?? []).map((call) => ({
    functionCall: { name: call.name, args: call.args ?? {} },
    ...(reply.thinking ? { thoughtSignature: `sig-${nextId()}` } : {}),
  }));

const response = (p: Part[], last: boolean) => ({
  candidates: [{ content: { role: "model", parts: p }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  modelVersion: "gemini-2.5-flash",
});

function stream(reply: ScriptedReply, nextId: () => number) {
  const words = splitText(reply.text ?? "");
  // The first chunk holds the thought and the first word; calls come with the last chunk.
  const frames = words.map((word, i) => {
    const chunk = i === 0 ? thought(reply, nextId) : [];
    if (word) chunk.push({ text: word });
    if (i === words.length - 1) chunk.push(...calls(reply, nextId));
    return sse(response(chunk, i === words.length - 1));
  });
  return { contentType: "text/event-stream", frames, beforeHang: 1 };
}

export const gemini: ProviderApi = {
  name: "gemini",
  route: (path) => {
    const match = /^\/gemini\/v1beta\/models\/[^:]+:(generateContent|streamGenerateContent)$/.exec(path);
    return match ? { stream: match[1] === "streamGenerateContent" } : undefined;
  },
  validate: geminiError,
  lastTurn,
  json: (reply, nextId) =>
    response([...thought(reply, nextId), ...(reply.text ? [{ text: reply.text }] : []), ...calls(reply, nextId)], true),
  stream,
};
