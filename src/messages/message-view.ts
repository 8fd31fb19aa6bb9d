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

/**
 * One tool call an AIMessage puts on the wire, which a ToolMessage must answer.
 * `id` is the call's id as stored ("" when missing); `args` its arguments as stored.
 */
export interface ToolCallRef {
  id: string;
  name: string;
  args: unknown;
  /**
   * True for a call that is not an entry of `tool_calls` (an `additional_kwargs.tool_calls` entry,
   * a content block or a Responses output item): some integrations send it and others do not, so
   * the repair moves it into `tool_calls`. Such calls are typically the invalid ones.
   */
  invalid: boolean;
  /** The stored entry, block or output item the call was read from. */
  entry: object;
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

/** The `tool_call_id` a ToolMessage answers, when it is a non-empty string. */
export function toolCallIdOf(message: unknown): string | undefined {
  const id = (message as Loose).tool_call_id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** The `tool_call_id` a ToolMessage answers as stored, "" when missing: a call without id is answered under "". */
export function rawToolCallIdOf(message: unknown): string {
  const id = (message as Loose).tool_call_id;
  return typeof id === "string" ? id : "";
}

/** The id a `tool_calls` (or `additional_kwargs.tool_calls`) entry has as stored, or "". */
export function rawCallId(call: unknown): string {
  if (typeof call !== "object" || call === null) return "";
  const id = (call as Loose).id;
  return typeof id === "string" ? id : "";
}

/** The call id of a content block or Responses output item: `call_id` for `function_call` shapes, else `id`. */
export function itemCallId(item: Loose): string {
  const id = typeof item.call_id === "string" ? item.call_id : item.id;
  return typeof id === "string" ? id : "";
}

/** The longest call id every provider accepts (OpenAI's `tool_calls[].id` limit). */
export const MAX_CALL_ID_LENGTH = 40;

/** `[A-Za-z0-9_-]` as a table by char code: the clean check reads every char of every call id (16% fewer instructions). */
const CALL_ID_CHARS = Uint8Array.from({ length: 128 }, (_, c) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 ? 1 : 0,
);

/** Whether UTF-16 code `c` may appear in a call id: `[A-Za-z0-9_-]` (Anthropic's `tool_use.id` pattern). */
export function isCallIdChar(c: number): boolean {
  return c < 128 && CALL_ID_CHARS[c] === 1;
}

/** Whether every provider accepts `id` as a tool call id: 1 to 40 characters of `[A-Za-z0-9_-]`. */
export function isValidCallId(id: string): boolean {
  if (id.length === 0 || id.length > MAX_CALL_ID_LENGTH) return false;
  for (let i = 0; i < id.length; i++) if (!isCallIdChar(id.charCodeAt(i))) return false;
  return true;
}

type Block = Loose & { type?: unknown };
const EMPTY: readonly unknown[] = Object.freeze([]);
const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : EMPTY);

/** Whether `valid` (a `tool_calls` list) has an entry with id `id`. */
function declares(valid: readonly unknown[], id: string): boolean {
  for (let i = 0; i < valid.length; i++) if (rawCallId(valid[i]) === id) return true;
  return false;
}

/** The function name of a call in any of the stored shapes. */
function nameOf(call: Loose): string {
  const fn = call.function as Loose | undefined;
  return typeof call.name === "string" ? call.name : typeof fn?.name === "string" ? fn.name : "";
}

/** Whether the Responses converter replays `response_metadata.output` instead of the message: every item typed. */
export function isReplayed(output: readonly unknown[]): boolean {
  for (let i = 0; i < output.length; i++) {
    const item = output[i] as Block | null;
    if (typeof item !== "object" || item === null || typeof item.type !== "string") return false;
  }
  return true;
}

const isContentCall = (b: Block) => b.type === "tool_use" || b.type === "tool_call" || b.type === "function_call";
const isOutputCall = (b: Block) => b.type === "function_call" || b.type === "custom_tool_call";

/**
 * Visits every call of `message` that some integration sends but `tool_calls` does not hold, in the
 * order `toolCallsOf` lists them. `visit` returns true to stop; returns whether it stopped.
 * Sources, as the converters read them:
 * - `additional_kwargs.tool_calls`: ChatOpenAI (completions and Responses) sends them when
 *   `tool_calls` is empty, as when every call of the turn had unparsable arguments;
 * - content blocks `tool_use` (ChatAnthropic, ChatGoogleGenerativeAI), `tool_call` (Gemini, v1
 *   content) and `function_call` (`server_tool_use` is answered by the provider itself);
 * - Responses output items `function_call` / `custom_tool_call` (`call_id`): ChatOpenAI with
 *   `useResponsesApi` replays `response_metadata.output` as stored, instead of the message.
 * `invalid_tool_calls` is not a source: no converter reads it, so an invalid call stored only there
 * (ChatOpenAI next to valid calls) reaches no provider and needs no answer. Content blocks and
 * output items without an id cannot be told apart from `tool_calls` entries, so they are skipped.
 */
function visitHiddenCalls(
  message: Loose,
  valid: readonly unknown[],
  visit: (call: Loose, id: string) => boolean,
): boolean {
  // Plain loops and no helpers that allocate: the clean check runs this for every AIMessage.
  if (valid.length === 0) {
    const raw = (message.additional_kwargs as Loose | undefined)?.tool_calls;
    if (Array.isArray(raw)) {
      for (let i = 0; i < raw.length; i++) {
        const call = raw[i];
        if (typeof call === "object" && call !== null && visit(call as Loose, rawCallId(call))) return true;
      }
    }
  }
  const content = message.content;
  if (Array.isArray(content)) {
    for (let i = 0; i < content.length; i++) {
      const block = content[i] as Block | null;
      if (typeof block !== "object" || block === null || !isContentCall(block)) continue;
      const id = itemCallId(block);
      if (id !== "" && !declares(valid, id) && visit(block, id)) return true;
    }
  }
  const output = (message.response_metadata as Loose | undefined)?.output;
  if (Array.isArray(output) && output.length > 0 && isReplayed(output)) {
    for (let i = 0; i < output.length; i++) {
      const item = output[i] as Block;
      if (!isOutputCall(item)) continue;
      const id = itemCallId(item);
      if (id !== "" && !declares(valid, id) && visit(item, id)) return true;
    }
  }
  return false;
}

const stopAtFirst = () => true;

/**
 * Whether `message` puts on the wire a call that `tool_calls` does not hold (see `toolCallsOf`).
 * Allocation-free: the clean check runs it for every AIMessage.
 */
export function hasHiddenCalls(message: unknown): boolean {
  const m = message as Loose;
  const valid = m.tool_calls;
  return visitHiddenCalls(m, Array.isArray(valid) ? valid : EMPTY, stopAtFirst);
}

/**
 * The tool calls an AIMessage puts on the wire, one per id, which ToolMessages must answer: every
 * object entry of `tool_calls` (with or without an id), then the calls only some integrations send
 * (`invalid: true`, see `visitHiddenCalls`). Returns a shared empty array for messages without
 * calls, so the clean path allocates nothing.
 */
export function toolCallsOf(message: unknown): readonly ToolCallRef[] {
  const m = message as Loose;
  const valid = listOf(m.tool_calls);
  let out: ToolCallRef[] | undefined;
  for (let i = 0; i < valid.length; i++) {
    const call = valid[i];
    if (typeof call !== "object" || call === null) continue;
    const c = call as Loose;
    (out ??= []).push({ id: rawCallId(c), name: nameOf(c), args: c.args, invalid: false, entry: c });
  }
  // Checked first, allocation-free: most messages have none, and the visitor is a closure.
  if (!visitHiddenCalls(m, valid, stopAtFirst)) return out ?? NO_CALLS;
  visitHiddenCalls(m, valid, (call, id) => {
    if (id !== "" && out?.some((c) => c.id === id)) return false;
    const fn = call.function as Loose | undefined;
    const args = "args" in call ? call.args : "input" in call ? call.input : (fn?.arguments ?? call.arguments);
    (out ??= []).push({ id, name: nameOf(call), args, invalid: true, entry: call });
    return false;
  });
  return out ?? NO_CALLS;
}

const NO_CALLS: readonly ToolCallRef[] = Object.freeze([]);

/**
 * Whether a resumed run would still execute calls of this AIMessage: ToolNode runs `tool_calls`
 * only, so a message whose calls are all invalid is a turn that stopped, not one in progress.
 */
export function hasRunnableCalls(message: unknown): boolean {
  const calls = (message as Loose).tool_calls;
  return Array.isArray(calls) && calls.length > 0 && !hasStreamLeftovers(message);
}

/** Whether `message` is a `RemoveMessage` (type `"remove"`): an instruction to the `messages` reducer, not a message. */
export function isRemoveMessage(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as Loose).type === "remove";
}

/**
 * Whether the message was saved mid-stream: a call's input streamed into its content (Anthropic's
 * `input_json_delta`, v1 `tool_call_chunk`) stops before its JSON ends, or a call chunk's arguments do. Such
 * calls are not ones a resumed run would execute, and their blocks no provider accepts. A reply streamed to its
 * end keeps those blocks too (ChatAnthropic, under `streamMode: "messages"`), whole: it is left as stored.
 */
export function hasStreamLeftovers(message: unknown): boolean {
  const m = message as Loose;
  const content = m.content;
  if (Array.isArray(content)) {
    for (let i = 0; i < content.length; i++) {
      const block = content[i];
      if (isStreamOnlyBlock(block) && isCutOff(streamedInput(content, block.index))) return true;
    }
  }
  const chunks = m.tool_call_chunks;
  if (!Array.isArray(chunks)) return false;
  for (let i = 0; i < chunks.length; i++) if (isCutOff((chunks[i] as Loose | null)?.args)) return true;
  return false;
}

/** Whether streamed arguments stop before their JSON ends. */
function isCutOff(args: unknown): boolean {
  if (typeof args !== "string" || args === "") return false;
  try {
    JSON.parse(args);
    return false;
  } catch {
    return true;
  }
}

/** The input streamed for the call at `index`: its `tool_use` block's string input, then each delta's. */
function streamedInput(content: readonly unknown[], index: unknown): string {
  let joined = "";
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as Block | null;
    if (!block || block.index !== index) continue;
    const part = block.type === "tool_call_chunk" ? block.args : block.input;
    if (typeof part === "string") joined += part;
  }
  return joined;
}

/** Whether a content block is one only a stream carries (see {@link hasStreamLeftovers}). */
export function isStreamOnlyBlock(block: unknown): block is Block {
  const type = (block as Block | null)?.type;
  return type === "input_json_delta" || type === "tool_call_chunk";
}

/** The characters `String.prototype.trim` removes. */
function isWhitespace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 160 ||
    code === 5760 ||
    (code >= 8192 && code <= 8202) ||
    code === 8232 ||
    code === 8233 ||
    code === 8239 ||
    code === 8287 ||
    code === 12288 ||
    code === 65279
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
