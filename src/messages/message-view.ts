/**
 * Duck-typed reads of chat messages.
 *
 * Checkpoints hold `@langchain/core` message instances, but node output kept in
 * `pendingWrites` and hand-written state may hold plain objects
 * (`{ role: "tool", ... }`), and the app's copy of `@langchain/core` may differ
 * from ours, so nothing here uses `instanceof`.
 */

/** The conversational role of a message, as the repair rules see it. */
export type MessageRole = "human" | "ai" | "tool" | "system" | "other";

/** One tool call of an AIMessage that a ToolMessage must answer. */
export interface ToolCallRef {
  id: string;
  name: string;
  /** True for an entry of `invalid_tool_calls` (truncated or unparsable arguments). */
  invalid: boolean;
}

/** A role name (LangChain `type` or OpenAI-style `role`) as a role. A switch: this runs for every message of every read. */
function roleNamed(name: string): MessageRole {
  switch (name) {
    case "human":
    case "user":
      return "human";
    case "ai":
    case "assistant":
      return "ai";
    case "tool":
      return "tool";
    case "system":
    case "developer":
      return "system";
    default:
      return "other";
  }
}

type Loose = Record<string, unknown>;

/** Whether `value` looks like a chat message (class instance or plain object). */
export function isMessageLike(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Loose;
  return (typeof v.type === "string" || typeof v.role === "string") && "content" in v;
}

/**
 * Whether `value` is a list the repair rules apply to: a non-empty array whose
 * every element is a message. Lists of plain strings (the conformance suite
 * stores `["hi"]`) and mixed arrays are not.
 */
export function isMessageList(value: unknown): value is readonly unknown[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) if (!isMessageLike(value[i])) return false;
  return true;
}

/** The role of a message; `ChatMessage` ("generic") is read through its `role`; anything else is "other". */
export function roleOf(message: unknown): MessageRole {
  if (typeof message !== "object" || message === null) return "other";
  const m = message as Loose;
  const type = m.type;
  if (typeof type === "string" && type !== "generic") return roleNamed(type);
  const role = m.role;
  return typeof role === "string" ? roleNamed(role) : "other";
}

/** The message's `id`, when it is a non-empty string. */
export function idOf(message: unknown): string | undefined {
  const id = (message as Loose).id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** The `tool_call_id` a ToolMessage answers. */
export function toolCallIdOf(message: unknown): string | undefined {
  const id = (message as Loose).tool_call_id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/**
 * The id a ToolMessage answers a tool call by, or undefined for a call that
 * cannot be answered (providers require an id), which is then not counted.
 */
export function callIdOf(call: unknown): string | undefined {
  if (typeof call !== "object" || call === null) return undefined;
  const id = (call as Loose).id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

function pushCalls(out: ToolCallRef[], calls: unknown, invalid: boolean): void {
  if (!Array.isArray(calls)) return;
  for (const call of calls) {
    const id = callIdOf(call);
    if (id === undefined) continue;
    const c = call as Loose;
    const fn = c.function as Loose | undefined;
    const name = typeof c.name === "string" ? c.name : typeof fn?.name === "string" ? fn.name : "";
    out.push({ id, name, invalid });
  }
}

/**
 * The tool calls an AIMessage must have answered, in call order: `tool_calls`
 * first, then `invalid_tool_calls` (provider adapters send both). Returns a
 * shared empty array for messages without calls, so the clean path allocates nothing.
 */
export function toolCallsOf(message: unknown): readonly ToolCallRef[] {
  const m = message as Loose;
  const valid = m.tool_calls;
  const invalid = m.invalid_tool_calls;
  const hasValid = Array.isArray(valid) && valid.length > 0;
  const hasInvalid = Array.isArray(invalid) && invalid.length > 0;
  if (!hasValid && !hasInvalid) return NO_CALLS;
  const out: ToolCallRef[] = [];
  if (hasValid) pushCalls(out, valid, false);
  if (hasInvalid) pushCalls(out, invalid, true);
  return out.length === 0 ? NO_CALLS : out;
}

const NO_CALLS: readonly ToolCallRef[] = Object.freeze([]);

/** Whether an AIMessage declares at least one answerable tool call. */
export function hasToolCalls(message: unknown): boolean {
  return toolCallsOf(message).length > 0;
}

/** The characters `String.prototype.trim` removes. */
function isWhitespace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) || code === 32 || code === 160 || code === 5760 || (code >= 8192 && code <= 8202) ||
    code === 8232 || code === 8233 || code === 8239 || code === 8287 || code === 12288 || code === 65279
  );
}

/** `text.trim() === ""` without allocating: stops at the first visible character. */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isWhitespace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Whether a message has no content a provider would accept: empty or
 * whitespace-only text, `null`, or an array of only empty text blocks.
 */
export function hasEmptyContent(message: unknown): boolean {
  const content = (message as Loose).content;
  if (content === null || content === undefined) return true;
  if (typeof content === "string") return isBlank(content);
  if (!Array.isArray(content)) return false;
  for (const block of content) {
    if (typeof block === "string") {
      if (!isBlank(block)) return false;
      continue;
    }
    if (typeof block !== "object" || block === null) continue;
    const b = block as Loose;
    if (b.type !== "text" || (typeof b.text === "string" && !isBlank(b.text))) return false;
  }
  return true;
}
