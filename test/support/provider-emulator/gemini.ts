/**
 * Gemini API (`POST /gemini/v1beta/models/<model>:generateContent`, and `:streamGenerateContent?alt=sse`).
 *
 * History rules, from https://ai.google.dev/gemini-api/docs/function-calling (the model's
 * `functionCall` turn is answered by one turn holding a `functionResponse` part per call) and the
 * API's 400 `INVALID_ARGUMENT` texts; alternation is the rule the design brief records for Gemini
 * ("Please ensure that multiturn requests alternate between user and model."). Calls carry no id
 * on the wire: they are paired by count and position, so id rules cannot apply. A request ends on the user or on
 * function responses ("Please ensure that multiturn requests ends with a user role or a function response.",
 * one-api#836).
 *
 * Thought signatures (https://ai.google.dev/gemini-api/docs/thought-signatures): each one sent is checked against
 * what this emulator issued, for the part it signed ("Corrupted thought signature.", CLIProxyAPI#994), but for the
 * documented `skip_thought_signature_validator` and `context_engineering_is_the_way_to_go`, and the stand-in
 * @langchain/google-genai sends for a call with none on a model named gemini-3 (accepted: no report says otherwise).
 * Gemini 3 models (and the `-latest` aliases, which name them) want the first call of each model turn of the current
 * turn signed ("Function call is missing a thought_signature in functionCall parts.", langchain-google#1364).
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

/** What Gemini signed: each signature, with the thought text or the call name it signed. */
type GeminiLedger = Map<string, { thought?: string; call?: string }>;

/** The signatures that skip the check: Gemini's documented two, and @langchain/google-genai's stand-in. */
const SKIPS = new Set(["skip_thought_signature_validator", "context_engineering_is_the_way_to_go"]);
const isClientStandIn = (signature: string) => signature.startsWith("ErYCCrMCAdHtim9kOoOkrPiCNVsmlpMIKd7ZMxgiFbVQ");

const modelOf = (path: string) => /\/models\/([^:]+):/.exec(path)?.[1] ?? "";
/** Gemini 3, and the aliases that name it. */
const signsCalls = (model: string) => /^gemini-3|^gemini-[a-z-]*latest$/.test(model);

function signatureError(contents: Content[], ledger: GeminiLedger, model: string): Rejection | undefined {
  for (const c of contents) {
    for (const p of c.parts) {
      const signature = p.thoughtSignature;
      if (signature === undefined || SKIPS.has(signature) || isClientStandIn(signature)) continue;
      const issued = ledger.get(signature);
      const call = (p.functionCall as { name?: string } | undefined)?.name;
      if (issued === undefined || (issued.call ?? issued.thought) !== (call ?? p.text)) {
        return reject("Corrupted thought signature.");
      }
    }
  }
  if (!signsCalls(model)) return undefined;
  let turn = 0;
  contents.forEach((c, i) => {
    if (c.role === "user" && count(c, "functionResponse") === 0) turn = i + 1;
  });
  for (const [i, c] of contents.entries()) {
    const first = c.parts.find((p) => p.functionCall);
    if (i < turn || c.role !== "model" || !first || first.thoughtSignature !== undefined) continue;
    const name = (first.functionCall as { name?: string }).name;
    return reject(
      "Function call is missing a thought_signature in functionCall parts. This is required for tools to work " +
        "correctly, and missing thought_signature may lead to degraded model performance. Additional data, function " +
        `call \`default_api:${name}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
    );
  }
  return undefined;
}

export function geminiError(body: Record<string, unknown>, ledger: GeminiLedger, path: string): Rejection | undefined {
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
  if (contents.at(-1)?.role === "model") {
    return reject("Please ensure that multiturn requests ends with a user role or a function response.");
  }
  return signatureError(contents, ledger, modelOf(path));
}

export function geminiLastTurn(body: Record<string, unknown>): LastTurn {
  const last = ((body.contents ?? []) as Content[]).at(-1);
  if (!last) return { role: "none", text: "" };
  if (count(last, "functionResponse") > 0) return { role: "tool", text: "" };
  return { role: last.role === "model" ? "assistant" : "user", text: last.parts.map((p) => p.text ?? "").join("") };
}

export type { GeminiLedger };
type GeminiIssue = Parameters<ProviderApi<GeminiLedger>["json"]>[1];

/** A signature for what it signs, recorded in the ledger. */
const sign = ({ nextId, ledger }: GeminiIssue, signed: { thought?: string; call?: string }) => {
  const signature = `sig-${nextId()}`;
  ledger.set(signature, signed);
  return signature;
};
const thought = (reply: ScriptedReply, issue: GeminiIssue): Part[] =>
  reply.thinking
    ? [{ text: reply.thinking, thought: true, thoughtSignature: sign(issue, { thought: reply.thinking }) }]
    : [];
// The first call of a turn is signed when the model thinks, as Gemini 3 signs it.
const calls = (reply: ScriptedReply, issue: GeminiIssue): Part[] =>
  (reply.calls ?? []).map((call, k) => ({
    functionCall: { name: call.name, args: call.args ?? {} },
    ...(reply.thinking && k === 0 ? { thoughtSignature: sign(issue, { call: call.name }) } : {}),
  }));

const response = (p: Part[], last: boolean) => ({
  candidates: [{ content: { role: "model", parts: p }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  modelVersion: "gemini-2.5-flash",
});

/** A whole reply, as `generateContent` returns it. */
export const geminiResponse = (reply: ScriptedReply, issue: GeminiIssue) =>
  response([...thought(reply, issue), ...(reply.text ? [{ text: reply.text }] : []), ...calls(reply, issue)], true);

/** A reply as the responses `streamGenerateContent` sends, one per word; a `hang` cuts it after the first. */
export function geminiChunks(reply: ScriptedReply, issue: GeminiIssue) {
  const words = splitText(reply.text ?? "");
  // The first chunk holds the thought and the first word; calls come with the last chunk.
  return words.map((word, i) => {
    const chunk = i === 0 ? thought(reply, issue) : [];
    if (word) chunk.push({ text: word });
    if (i === words.length - 1) chunk.push(...calls(reply, issue));
    return response(chunk, i === words.length - 1);
  });
}

export const gemini: ProviderApi<GeminiLedger> = {
  name: "gemini",
  newLedger: () => new Map(),
  route: (path) => {
    const match = /^\/gemini\/v1beta\/models\/[^:]+:(generateContent|streamGenerateContent)$/.exec(path);
    return match ? { stream: match[1] === "streamGenerateContent" } : undefined;
  },
  validate: geminiError,
  lastTurn: geminiLastTurn,
  json: geminiResponse,
  // `?alt=sse`, which @langchain/google-genai asks for.
  stream: (reply, issue) => ({
    contentType: "text/event-stream",
    frames: geminiChunks(reply, issue).map((chunk) => sse(chunk)),
    cuts: { text: 1 },
  }),
};
