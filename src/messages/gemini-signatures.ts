/**
 * Reads of the thought signatures Gemini puts on a reply's calls, as ChatGoogleGenerativeAI stores them: a map from
 * call id to signature in `additional_kwargs`, which the client sends on each call's `functionCall` part.
 */
import { toolCallsOf } from "./message-view.js";
import { madeBy } from "./reply-origin.js";

type Loose = Record<string, unknown>;

/** The `additional_kwargs` key of the map, keyed by call id (it follows a renamed call, see `rewriteCalls`). */
export const GEMINI_SIGNATURES_KEY = "__gemini_function_call_thought_signatures__";

/**
 * The signature Gemini documents for a call whose own is lost or was never made (a call another model made): it
 * skips the check (https://ai.google.dev/gemini-api/docs/thought-signatures).
 */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

const signaturesOf = (m: Loose): Loose | undefined => {
  const map = (m.additional_kwargs as Loose | undefined)?.[GEMINI_SIGNATURES_KEY];
  return typeof map === "object" && map !== null ? (map as Loose) : undefined;
};

/** Whether the reply holds any signature: a signed call, or a signed thought part. */
function isSigned(m: Loose): boolean {
  const map = signaturesOf(m);
  if (map !== undefined && Object.keys(map).length > 0) return true;
  return Array.isArray(m.content) && m.content.some((b: Loose | null) => typeof b?.signature === "string");
}

/**
 * The id of the reply's first call when Gemini 3 would want a signature on it and none travels with it (pattern T),
 * else undefined. Gemini signs the first call of each step; a Gemini reply with no signature at all was made
 * without thinking and needs none, while a call of any other model's reply needs the documented skip.
 */
export function unsignedFirstCall(message: unknown): string | undefined {
  const m = message as Loose;
  // The calls it puts on the wire, as the repair sends them (one from outside `tool_calls` is moved into it).
  const first = toolCallsOf(m)[0];
  if (first === undefined) return undefined;
  const { id } = first;
  const signature = signaturesOf(m)?.[id];
  if (typeof signature === "string" && signature !== "") return undefined;
  return madeBy(m, "thought-signatures") && !isSigned(m) ? undefined : id;
}
