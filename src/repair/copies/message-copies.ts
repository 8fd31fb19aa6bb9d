import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { GEMINI_SIGNATURES_KEY } from "../../messages/gemini-signatures.js";
import { itemCallId, rawCallId, type ToolCallRef } from "../../messages/message-view.js";

type Loose = Record<string, unknown>;

/** Copies of an instance are instances too. */
const isInstance = (message: Loose) => typeof message._getType === "function" || typeof message.getType === "function";

/** So a copy serializes like the stored message. */
function defined<T extends Loose>(fields: T): T {
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields;
}

/** Unparsable (truncated) JSON becomes `{}`. */
function argsObject(args: unknown): Record<string, unknown> {
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return {};
    }
  }
  return typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

function renameKeys(record: unknown, rename: ReadonlyMap<string, string>): unknown {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return record;
  if (!Object.keys(record).some((k) => rename.has(k))) return record;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [rename.get(k) ?? k, v]));
}

/** In `call_id` or `id`. */
function renameItems(items: unknown, rename: ReadonlyMap<string, string>, isCall: (item: Loose) => boolean): unknown {
  if (!Array.isArray(items) || rename.size === 0) return items;
  return items.map((item: Loose) => {
    if (typeof item !== "object" || item === null || !isCall(item)) return item;
    const next = rename.get(itemCallId(item));
    if (next === undefined) return item;
    return typeof item.call_id === "string" ? { ...item, call_id: next } : { ...item, id: next };
  });
}

const isCallBlock = (b: Loose) => b.type === "tool_use" || b.type === "tool_call" || b.type === "function_call";
const isOutputCall = (b: Loose) => b.type === "function_call" || b.type === "custom_tool_call";
const isRawCall = () => true;

/** Gemini's and OpenAI Responses' maps keyed by call id must follow a renamed call. */
const KEYED_BY_CALL_ID = [GEMINI_SIGNATURES_KEY, "__openai_function_call_ids__"];

/**
 * Every call in `tool_calls` under `ids`, each renamed id changed wherever the message holds it, so thinking blocks,
 * reasoning items and signatures go out as before.
 */
export function rewriteCalls(ai: unknown, calls: readonly ToolCallRef[], ids: readonly string[]): unknown {
  const m = ai as Loose;
  const kept = new Set(calls.filter((c, k) => c.id === ids[k]).map((c) => c.id));
  const rename = new Map<string, string>();
  calls.forEach((c, k) => {
    if (c.id !== ids[k] && c.id !== "" && !kept.has(c.id) && !rename.has(c.id)) rename.set(c.id, ids[k]!);
  });
  const promoted = new Set(calls.filter((c) => c.invalid && c.id !== "").map((c) => c.id));
  const toolCalls = calls.map((c, k) => {
    if (c.invalid) return { id: ids[k], name: c.name, args: argsObject(c.args), type: "tool_call" };
    return c.id === ids[k] ? c.entry : { ...c.entry, id: ids[k] };
  });
  let kwargs = m.additional_kwargs as Loose | undefined;
  if (kwargs && rename.size > 0) {
    kwargs = { ...kwargs, tool_calls: renameItems(kwargs.tool_calls, rename, isRawCall) };
    if (kwargs.tool_calls === undefined) delete kwargs.tool_calls;
    for (const key of KEYED_BY_CALL_ID) if (key in kwargs) kwargs[key] = renameKeys(kwargs[key], rename);
  }
  let metadata = m.response_metadata as Loose | undefined;
  if (metadata && Array.isArray(metadata.output) && rename.size > 0) {
    metadata = { ...metadata, output: renameItems(metadata.output, rename, isOutputCall) };
  }
  return copyReply(m, {
    content: renameItems(m.content, rename, isCallBlock),
    additional_kwargs: kwargs,
    response_metadata: metadata,
    tool_calls: toolCalls,
    // An invalid call now in tool_calls leaves invalid_tool_calls; one that no integration sends stays there.
    invalid_tool_calls: Array.isArray(m.invalid_tool_calls)
      ? m.invalid_tool_calls.filter((c) => !promoted.has(rawCallId(c)))
      : m.invalid_tool_calls,
  });
}

export interface ReplyFields {
  content: unknown;
  additional_kwargs: unknown;
  response_metadata: unknown;
  tool_calls: unknown;
  invalid_tool_calls: unknown;
}

/** A stored chunk's `tool_call_chunks` stay behind: its `tool_calls` hold them parsed. */
function copyReply(m: Loose, fields: ReplyFields): unknown {
  if (!isInstance(m)) return defined({ ...m, ...fields, tool_call_chunks: undefined });
  // Field by field, not spread: on Node 20 an object made by a spread is slow to add properties to.
  const { content, additional_kwargs, response_metadata, tool_calls, invalid_tool_calls } = fields;
  const { id, name, usage_metadata } = m;
  const copy = {
    content,
    additional_kwargs,
    response_metadata,
    tool_calls,
    invalid_tool_calls,
    id,
    name,
    usage_metadata,
  };
  return new AIMessage(defined(copy) as ConstructorParameters<typeof AIMessage>[0]);
}

export function replyWith(ai: unknown, fields: Partial<ReplyFields>): unknown {
  const m = ai as Loose;
  const { content, additional_kwargs, response_metadata, tool_calls, invalid_tool_calls } = m;
  return copyReply(m, { content, additional_kwargs, response_metadata, tool_calls, invalid_tool_calls, ...fields });
}

/** Another call id (`invalid-call-id`), a marker for no content (`empty-tool-result`). */
export function resultWith(result: unknown, fields: { tool_call_id?: string; content?: string }): unknown {
  const m = result as Loose;
  if (!isInstance(m)) return { ...m, ...fields };
  const { name, status, artifact, additional_kwargs, response_metadata } = m;
  const content = fields.content ?? m.content;
  const tool_call_id = fields.tool_call_id ?? m.tool_call_id;
  const copy = { id: m.id, content, name, status, artifact, additional_kwargs, response_metadata, tool_call_id };
  return new ToolMessage(defined(copy) as ConstructorParameters<typeof ToolMessage>[0]);
}

/** `empty-user-turn`, `system-message-mid-history`: id and name kept; a plain object stays one, its role renamed. */
export function asHumanMessage(message: unknown, content: unknown): unknown {
  const m = message as Loose;
  if (!isInstance(m)) {
    return {
      ...m,
      content,
      ...(m.type !== undefined ? { type: "human" } : {}),
      ...(m.role !== undefined ? { role: "user" } : {}),
    };
  }
  const { id, name, additional_kwargs, response_metadata } = m;
  return new HumanMessage(
    defined({ id, name, content, additional_kwargs, response_metadata }) as ConstructorParameters<
      typeof HumanMessage
    >[0],
  );
}
