// Duck-typed: pending writes hold plain objects and the app's `@langchain/core` may not be ours, so no `instanceof`.

export type MessageRole = "human" | "ai" | "tool" | "system" | "other";

/** A tool call an AIMessage puts on the wire; `id` is "" when missing. */
export interface ToolCallRef {
  id: string;
  name: string;
  args: unknown;
  /** Not in `tool_calls`: only some integrations send it, so the repair moves it there. */
  invalid: boolean;
  entry: object;
}

/** A switch: this runs for every message of every read. */
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

export function isMessageLike(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Loose;
  return (typeof v.type === "string" || typeof v.role === "string") && "content" in v;
}

/** Non-empty, all messages: the conformance suite stores `["hi"]`. */
export function isMessageList(value: unknown): value is readonly unknown[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) if (!isMessageLike(value[i])) return false;
  return true;
}

/** `ChatMessage` ("generic") is read through its `role`. */
export function roleOf(message: unknown): MessageRole {
  if (typeof message !== "object" || message === null) return "other";
  const m = message as Loose;
  const type = m.type;
  if (typeof type === "string" && type !== "generic") return roleNamed(type);
  const role = m.role;
  return typeof role === "string" ? roleNamed(role) : "other";
}

export function idOf(message: unknown): string | undefined {
  const id = (message as Loose).id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

export function toolCallIdOf(message: unknown): string | undefined {
  const id = (message as Loose).tool_call_id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** A call without id is answered under "". */
export function rawToolCallIdOf(message: unknown): string {
  const id = (message as Loose).tool_call_id;
  return typeof id === "string" ? id : "";
}

export function rawCallId(call: unknown): string {
  if (typeof call !== "object" || call === null) return "";
  const id = (call as Loose).id;
  return typeof id === "string" ? id : "";
}

export function itemCallId(item: Loose): string {
  const id = typeof item.call_id === "string" ? item.call_id : item.id;
  return typeof id === "string" ? id : "";
}

/** OpenAI's `tool_calls[].id` limit. */
export const MAX_CALL_ID_LENGTH = 40;

/** A table by char code: the clean check reads every char of every call id (16% fewer instructions). */
const CALL_ID_CHARS = Uint8Array.from({ length: 128 }, (_, c) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 ? 1 : 0,
);

/** Anthropic's `tool_use.id` pattern, `[A-Za-z0-9_-]`. */
export function isCallIdChar(c: number): boolean {
  return c < 128 && CALL_ID_CHARS[c] === 1;
}

export function isValidCallId(id: string): boolean {
  if (id.length === 0 || id.length > MAX_CALL_ID_LENGTH) return false;
  for (let i = 0; i < id.length; i++) if (!isCallIdChar(id.charCodeAt(i))) return false;
  return true;
}

type Block = Loose & { type?: unknown };
const EMPTY: readonly unknown[] = Object.freeze([]);
const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : EMPTY);

function declares(valid: readonly unknown[], id: string): boolean {
  for (let i = 0; i < valid.length; i++) if (rawCallId(valid[i]) === id) return true;
  return false;
}

function nameOf(call: Loose): string {
  const fn = call.function as Loose | undefined;
  return typeof call.name === "string" ? call.name : typeof fn?.name === "string" ? fn.name : "";
}

/** The Responses converter replays `response_metadata.output` instead of the message when every item is typed. */
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
 * Calls some integration sends that `tool_calls` does not hold, as the converters read them (docs/providers.md).
 * `invalid_tool_calls` is no source: no converter sends it. `visit` returns true to stop.
 */
function visitHiddenCalls(
  message: Loose,
  valid: readonly unknown[],
  visit: (call: Loose, id: string) => boolean,
): boolean {
  // Plain loops, no allocating helpers: the clean check runs this for every AIMessage.
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

/** Allocation-free: the clean check runs it for every AIMessage. */
export function hasHiddenCalls(message: unknown): boolean {
  const m = message as Loose;
  const valid = m.tool_calls;
  return visitHiddenCalls(m, Array.isArray(valid) ? valid : EMPTY, stopAtFirst);
}

/** One per id: `tool_calls` entries, then the hidden calls (`invalid: true`); a shared empty array when none. */
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
  // Checked first, allocation-free: most messages have none.
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

/** ToolNode runs `tool_calls` only, so a message whose calls are all invalid is a turn that stopped. */
export function hasRunnableCalls(message: unknown): boolean {
  const calls = (message as Loose).tool_calls;
  return Array.isArray(calls) && calls.length > 0 && !hasStreamLeftovers(message);
}

/** A `RemoveMessage` is an instruction to the `messages` reducer, not a message. */
export function isRemoveMessage(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as Loose).type === "remove";
}

/**
 * Saved mid-stream: streamed call input (`input_json_delta`, `tool_call_chunk`) stops before its JSON ends. No
 * provider accepts those blocks; a reply streamed to its end keeps them whole and is left as stored.
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

function isCutOff(args: unknown): boolean {
  if (typeof args !== "string" || args === "") return false;
  try {
    JSON.parse(args);
    return false;
  } catch {
    return true;
  }
}

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

export function isStreamOnlyBlock(block: unknown): block is Block {
  const type = (block as Block | null)?.type;
  return type === "input_json_delta" || type === "tool_call_chunk";
}

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

/** `text.trim() === ""` without allocating. */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isWhitespace(text.charCodeAt(i))) return false;
  return true;
}

/** Empty or whitespace-only text, `null`, or only empty text blocks: no provider accepts it. */
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
