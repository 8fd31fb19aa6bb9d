// ChatGoogleGenerativeAI keeps a call id -> thought signature map in `additional_kwargs`, sent on each `functionCall`.
import { toolCallsOf } from "./message-view.js";
import { madeBy } from "./reply-origin.js";

type Loose = Record<string, unknown>;

/** Keyed by call id, so it follows a renamed call (`rewriteCalls`). */
export const GEMINI_SIGNATURES_KEY = "__gemini_function_call_thought_signatures__";

/** Gemini's skip for a call whose signature is lost (https://ai.google.dev/gemini-api/docs/thought-signatures). */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

const signaturesOf = (m: Loose): Loose | undefined => {
  const map = (m.additional_kwargs as Loose | undefined)?.[GEMINI_SIGNATURES_KEY];
  return typeof map === "object" && map !== null ? (map as Loose) : undefined;
};

function isSigned(m: Loose): boolean {
  const map = signaturesOf(m);
  if (map !== undefined && Object.keys(map).length > 0) return true;
  return Array.isArray(m.content) && m.content.some((b: Loose | null) => typeof b?.signature === "string");
}

/**
 * `unsigned-gemini-call`: Gemini 3 wants a signature on each step's first call; a Gemini reply with none at all was
 * made without thinking and needs none, while another model's reply needs the documented skip.
 */
export function unsignedFirstCall(message: unknown): string | undefined {
  const m = message as Loose;
  // As the repair sends them (one from outside `tool_calls` is moved into it).
  const first = toolCallsOf(m)[0];
  if (first === undefined) return undefined;
  const { id } = first;
  const signature = signaturesOf(m)?.[id];
  if (typeof signature === "string" && signature !== "") return undefined;
  return madeBy(m, "thought-signatures") && !isSigned(m) ? undefined : id;
}
