/**
 * Anthropic Messages (`POST /anthropic/v1/messages`, SSE events when `stream: true`).
 *
 * History rules, from https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 * ("tool result blocks must immediately follow their corresponding tool use blocks ... in the next
 * user message"), the Messages API reference (non-empty content except the final assistant turn;
 * `tool_use.id` matches `^[a-zA-Z0-9_-]+$`; the content block types a request may hold) and the API's
 * 400 `invalid_request_error` texts. Two rules are kept strict where reports disagree: the first message
 * must be the user's (required by the API reference until 2024; first-party reports from 2024-12 say an
 * assistant first message is accepted, Anthropic models on Bedrock reject it), and two assistant messages in a
 * row are rejected (as users reported, "roles must alternate"; the current API reference says consecutive
 * turns are combined). With `thinking` enabled, the assistant message whose tool use the request answers must
 * start with its thinking block (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking:
 * "Expected `thinking` or `redacted_thinking`, but found `text`").
 */
import { sse, type ProviderApi } from "./server.js";
import { splitText, type LastTurn, type Rejection, type ScriptedReply } from "./script.js";

const MODEL = "claude-sonnet-4-5";
interface Block {
  type: string;
  id?: string;
  tool_use_id?: string;
  text?: string;
}
interface Message {
  role: string;
  content: string | Block[];
}

const reject = (message: string): Rejection => ({
  status: 400,
  body: { type: "error", error: { type: "invalid_request_error", message } },
});
const blocks = (m: Message): Block[] =>
  typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
const VALID_ID = /^[a-zA-Z0-9_-]+$/;
/** The content block types a request's messages may hold. */
const REQUEST_BLOCKS = new Set([
  "text",
  "image",
  "document",
  "search_result",
  "thinking",
  "redacted_thinking",
  "tool_use",
  "tool_result",
  "server_tool_use",
  "web_search_tool_result",
]);

/** The turn-order rules (see the header): the user first, no two assistant messages in a row, thinking first. */
function turnOrderError(body: Record<string, unknown>, messages: Message[]): Rejection | undefined {
  if (messages[0] && messages[0].role !== "user") return reject('messages: first message must use the "user" role');
  for (const [i, m] of messages.entries()) {
    if (i > 0 && m.role === "assistant" && messages[i - 1]!.role === "assistant") {
      return reject(
        'messages: roles must alternate between "user" and "assistant", but found multiple "assistant" roles in a row',
      );
    }
  }
  const thinking = (body.thinking as { type?: string } | undefined)?.type === "enabled";
  const last = messages.at(-1);
  if (thinking && last && blocks(last).some((b) => b.type === "tool_result")) {
    const toolUse = messages.at(-2);
    const first = toolUse ? blocks(toolUse)[0] : undefined;
    if (first && first.type !== "thinking" && first.type !== "redacted_thinking") {
      return reject(
        `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first.type}\`. ` +
          "When `thinking` is enabled, a final `assistant` message must start with a thinking block.",
      );
    }
  }
  return undefined;
}

export function anthropicError(body: Record<string, unknown>): Rejection | undefined {
  const messages = (body.messages ?? []) as Message[];
  const order = turnOrderError(body, messages);
  if (order) return order;
  const seen = new Set<string>();
  for (const [i, m] of messages.entries()) {
    const content = blocks(m);
    const unknown = content.findIndex((b) => !REQUEST_BLOCKS.has(b.type));
    if (unknown >= 0) {
      return reject(
        `messages.${i}.content.${unknown}: Input tag '${content[unknown]!.type}' found using 'type' does not match any of the expected tags`,
      );
    }
    if (content.length === 0 || (typeof m.content === "string" && m.content === "")) {
      if (i < messages.length - 1 || m.role !== "assistant") {
        return reject(
          `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
        );
      }
    }
    for (const [j, b] of content.entries()) {
      if (b.type === "text" && !b.text)
        return reject(`messages.${i}.content.${j}.text: text content blocks must be non-empty`);
      if (b.type === "text" && !b.text!.trim())
        return reject(`messages.${i}.content.${j}.text: text content blocks must contain non-whitespace text`);
      if (b.type !== "tool_use") continue;
      if (!VALID_ID.test(b.id ?? ""))
        return reject(`messages.${i}.content.${j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (seen.has(b.id!)) return reject(`messages.${i}.content.${j}: \`tool_use\` ids must be unique`);
      seen.add(b.id!);
    }
    const previousCalls =
      i > 0
        ? blocks(messages[i - 1]!)
            .filter((b) => b.type === "tool_use")
            .map((b) => b.id)
        : [];
    for (const [j, b] of content.entries()) {
      if (b.type === "tool_result" && (m.role !== "user" || !previousCalls.includes(b.tool_use_id))) {
        return reject(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. ` +
            "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
        );
      }
    }
    const calls = content.filter((b) => b.type === "tool_use").map((b) => b.id!);
    const next = messages[i + 1];
    const answered = new Set(next ? blocks(next).map((b) => b.tool_use_id) : []);
    const missing = calls.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return reject(
        `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. ` +
          "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
      );
    }
  }
  return undefined;
}

function lastTurn(body: Record<string, unknown>): LastTurn {
  const last = ((body.messages ?? []) as Message[]).at(-1);
  if (!last) return { role: "none", text: "" };
  const content = blocks(last);
  if (content.some((b) => b.type === "tool_result")) return { role: "tool", text: "" };
  return { role: last.role === "assistant" ? "assistant" : "user", text: content.map((b) => b.text ?? "").join("") };
}

/** The reply's content blocks, thinking first (with a signature, as the API returns it). */
function content(reply: ScriptedReply, nextId: () => number) {
  return [
    ...(reply.thinking ? [{ type: "thinking", thinking: reply.thinking, signature: `sig-${nextId()}` }] : []),
    ...(reply.text ? [{ type: "text", text: reply.text }] : []),
    ...(reply.calls ?? []).map((call) => ({
      type: "tool_use",
      id: `toolu_${nextId()}`,
      name: call.name,
      input: call.args ?? {},
    })),
  ];
}

const message = (reply: ScriptedReply, blocks: unknown[], nextId: () => number) => ({
  id: `msg_${nextId()}`,
  type: "message",
  role: "assistant",
  model: MODEL,
  content: blocks,
  stop_reason: reply.calls?.length ? "tool_use" : "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

function stream(reply: ScriptedReply, nextId: () => number) {
  const done = message(reply, content(reply, nextId), nextId);
  const frames = [
    sse({ type: "message_start", message: { ...done, content: [], stop_reason: null } }, "message_start"),
  ];
  let beforeHang = 0;
  (done.content as Array<Record<string, unknown>>).forEach((block, index) => {
    const event = (data: Record<string, unknown>) => sse({ ...data, index }, data.type as string);
    if (block.type === "text") {
      frames.push(event({ type: "content_block_start", content_block: { type: "text", text: "" } }));
      for (const word of splitText(block.text as string)) {
        frames.push(event({ type: "content_block_delta", delta: { type: "text_delta", text: word } }));
        beforeHang ||= frames.length;
      }
    } else if (block.type === "thinking") {
      frames.push(
        event({ type: "content_block_start", content_block: { type: "thinking", thinking: "", signature: "" } }),
      );
      frames.push(event({ type: "content_block_delta", delta: { type: "thinking_delta", thinking: block.thinking } }));
      frames.push(
        event({ type: "content_block_delta", delta: { type: "signature_delta", signature: block.signature } }),
      );
    } else {
      frames.push(event({ type: "content_block_start", content_block: { ...block, input: {} } }));
      frames.push(
        event({
          type: "content_block_delta",
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        }),
      );
    }
    frames.push(event({ type: "content_block_stop" }));
  });
  frames.push(
    sse(
      {
        type: "message_delta",
        delta: { stop_reason: done.stop_reason, stop_sequence: null },
        usage: { output_tokens: 1 },
      },
      "message_delta",
    ),
  );
  frames.push(sse({ type: "message_stop" }, "message_stop"));
  return { contentType: "text/event-stream", frames, beforeHang: beforeHang || frames.length };
}

export const anthropic: ProviderApi = {
  name: "anthropic",
  route: (path, body) => (path === "/anthropic/v1/messages" ? { stream: body.stream === true } : undefined),
  validate: anthropicError,
  lastTurn,
  json: (reply, nextId) => message(reply, content(reply, nextId), nextId),
  stream,
};
