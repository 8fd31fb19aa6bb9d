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
 *
 * Signed blocks: each thinking block's signature is checked against what this emulator issued, for the model it
 * issued it to and the text it signed ("Invalid `signature` in `thinking` block": a block cut off before its
 * signature, pydantic-ai#7597; one another model signed, UncommonRoute#19, llxprt-code#2335; "...thinking.signature:
 * Field required" when it is missing); a redacted_thinking block's data likewise. The latest assistant message, when
 * the request returns tool results to it, must hold the thinking blocks of its response unchanged and in order
 * ("`thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified",
 * anthropic-sdk-python#1598, claude-code#19539).
 *
 * Server tools (https://docs.claude.com/en/docs/agents-and-tools/tool-use/server-tools): a `server_tool_use` has its
 * result after it in the same message, or, used next to a client tool, in the next assistant message with only
 * tool_result blocks between, or is still pending where the request ends on those results or on a paused turn
 * (litellm#33546: "`web_search` tool use with id … was found without a corresponding `web_search_tool_result`
 * block"); a result has its use before it (claude-code#64383).
 *
 * Models: Claude 4.6 and newer take no assistant prefill ("This model does not support assistant message prefill.
 * The conversation must end with a user message.", the 4.6 migration guide, deepagents#1585); a `role: "system"`
 * message in `messages` (what ChatAnthropic sends for a SystemMessage that is not first) is taken by none of the
 * models emulated here ("role 'system' is not supported on this model", claude-code#61412).
 */
import { sse, type ProviderApi, type StreamedReply } from "./server.js";
import { splitText, type LastTurn, type Rejection, type ScriptedReply, type ScriptedServerTool } from "./script.js";

interface Block {
  type: string;
  id?: string;
  tool_use_id?: string;
  text?: string;
  name?: string;
  thinking?: string;
  signature?: string;
  data?: string;
}

/** What Anthropic issued: each signed block (by its signature, or a redacted block's data) and each reply's list. */
interface AnthropicLedger {
  signed: Map<string, { model: string; text: string | undefined; reply: string }>;
  /** The keys (signature or data) of each reply's thinking blocks, in order. */
  replies: Map<string, string[]>;
}

/** A model name without its date snapshot or `-latest`: the signatures of one model under either name match. */
const baseModel = (model: unknown) => String(model).replace(/-(\d{8}|latest)$/, "");
/** Claude 4.6 and newer: no assistant prefill. */
const noPrefill = (model: unknown) =>
  /claude-(opus|sonnet|haiku)-4-([6-9]|\d\d)|claude-[a-z]+-[5-9]/.test(String(model));
/** A thinking block's key in the ledger: its signature, or a redacted block's data. */
const keyOf = (b: Block) => (b.type === "thinking" ? b.signature : b.data);
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
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
]);
const isServerResult = (b: Block) => b.type !== "tool_result" && b.type.endsWith("_tool_result");
const isThinking = (b: Block) => b.type === "thinking" || b.type === "redacted_thinking";

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

/** Each signed block was issued by this emulator, to this model, for its text. */
function signatureError(body: Record<string, unknown>, messages: Message[], ledger: AnthropicLedger) {
  for (const [i, m] of messages.entries()) {
    for (const [j, b] of blocks(m).entries()) {
      if (!isThinking(b)) continue;
      const field = b.type === "thinking" ? "signature" : "data";
      if (keyOf(b) === undefined) return reject(`messages.${i}.content.${j}.${b.type}.${field}: Field required`);
      const issued = ledger.signed.get(keyOf(b)!);
      if (issued === undefined || baseModel(issued.model) !== baseModel(body.model) || issued.text !== b.thinking) {
        return reject(`messages.${i}.content.${j}: Invalid \`${field}\` in \`${b.type}\` block`);
      }
    }
  }
  return undefined;
}

/** The latest assistant message, when the request returns tool results to it, holds its reply's thinking as issued. */
function modifiedLatestError(messages: Message[], ledger: AnthropicLedger): Rejection | undefined {
  const last = messages.at(-1);
  if (!last || !blocks(last).some((b) => b.type === "tool_result")) return undefined;
  const i = messages.length - 2;
  const latest = messages[i];
  if (!latest || latest.role !== "assistant") return undefined;
  const sent = blocks(latest).filter(isThinking).map(keyOf);
  const reply = sent.length > 0 ? ledger.signed.get(sent[0]!)?.reply : undefined;
  const issued = reply !== undefined ? ledger.replies.get(reply)! : [];
  if (sent.length === issued.length && sent.every((key, k) => key === issued[k])) return undefined;
  const j = Math.max(0, blocks(latest).findIndex(isThinking));
  return reject(
    `messages.${i}.content.${j}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. ` +
      "These blocks must remain as they were in the original response.",
  );
}

/** Each server tool use has its result, and each result its use (see the header). */
function serverToolError(messages: Message[]): Rejection | undefined {
  const linked = (at: number, step: 1 | -1): Message | undefined => {
    const next = messages[at + step];
    const results = (m: Message | undefined) => m?.role === "user" && blocks(m).every((b) => b.type === "tool_result");
    return results(next) ? messages[at + 2 * step] : undefined;
  };
  for (const [i, m] of messages.entries()) {
    if (m.role !== "assistant") continue;
    const content = blocks(m);
    const after = messages.slice(i + 1);
    const pending =
      (after.length === 1 && blocks(after[0]!).every((b) => b.type === "tool_result")) ||
      (after.length === 0 && content.at(-1)?.type === "server_tool_use");
    for (const [j, b] of content.entries()) {
      if (b.type === "server_tool_use") {
        const answers = (r: Block) => isServerResult(r) && r.tool_use_id === b.id;
        const next = linked(i, 1);
        if (pending || content.slice(j + 1).some(answers) || (next && blocks(next).some(answers))) continue;
        return reject(
          `messages.${i}: \`${b.name}\` tool use with id \`${b.id}\` was found without a corresponding \`${b.name}_tool_result\` block`,
        );
      }
      if (isServerResult(b)) {
        const makes = (u: Block) => u.type === "server_tool_use" && u.id === b.tool_use_id;
        const previous = linked(i, -1);
        if (content.slice(0, j).some(makes) || (previous && blocks(previous).some(makes))) continue;
        return reject(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`${b.type}\` blocks: ${b.tool_use_id}. ` +
            `Each \`${b.type}\` block must have a corresponding \`server_tool_use\` block before it.`,
        );
      }
    }
  }
  return undefined;
}

/** The rules of the model called: the roles it takes, and whether the conversation may end on its turn. */
function modelError(body: Record<string, unknown>, messages: Message[]): Rejection | undefined {
  const system = messages.findIndex((m) => m.role === "system");
  if (system >= 0) return reject(`messages.${system}: role 'system' is not supported on this model`);
  const last = messages.at(-1);
  // A turn the API paused ends on its open server tool use, and is sent back so to be continued.
  if (noPrefill(body.model) && last?.role === "assistant" && blocks(last).at(-1)?.type !== "server_tool_use") {
    return reject(
      "This model does not support assistant message prefill. The conversation must end with a user message.",
    );
  }
  return undefined;
}

export function anthropicError(body: Record<string, unknown>, ledger: AnthropicLedger): Rejection | undefined {
  const messages = (body.messages ?? []) as Message[];
  const model = modelError(body, messages);
  if (model) return model;
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
  return signatureError(body, messages, ledger) ?? modifiedLatestError(messages, ledger) ?? serverToolError(messages);
}

function lastTurn(body: Record<string, unknown>): LastTurn {
  const last = ((body.messages ?? []) as Message[]).at(-1);
  if (!last) return { role: "none", text: "" };
  const content = blocks(last);
  if (content.some((b) => b.type === "tool_result")) return { role: "tool", text: "" };
  return { role: last.role === "assistant" ? "assistant" : "user", text: content.map((b) => b.text ?? "").join("") };
}

/** A server tool's use and, when it finished, its result, as Anthropic returns them. */
function serverBlocks(tool: ScriptedServerTool, nextId: () => number) {
  const id = `srvtoolu_${nextId()}`;
  const use = { type: "server_tool_use", id, name: tool.name, input: { query: "weather in Paris" } };
  const content = {
    web_search: [{ type: "web_search_result", url: "https://weather.example", title: "Paris", encrypted_content: "e" }],
    web_fetch: {
      type: "web_fetch_result",
      url: "https://weather.example",
      content: { type: "document", source: { type: "text", media_type: "text/plain", data: "15°C" } },
    },
    code_execution: { type: "code_execution_result", stdout: "15", stderr: "", return_code: 0, content: [] },
  }[tool.name];
  return tool.status === undefined || tool.status === "completed"
    ? [use, { type: `${tool.name}_tool_result`, tool_use_id: id, content }]
    : [use];
}

/**
 * The reply's content blocks, as the API returns them: thinking first (signed for the model called, and recorded in
 * the ledger), then server tools' blocks, text and tool uses.
 */
function content(
  reply: ScriptedReply,
  { body, nextId, ledger }: Parameters<ProviderApi<AnthropicLedger>["json"]>[1],
  id: string,
) {
  const thinking = reply.thinking
    ? [
        { type: "thinking", thinking: reply.thinking, signature: `sig-${nextId()}` },
        ...(reply.redacted ? [{ type: "redacted_thinking", data: `redacted-${nextId()}` }] : []),
      ]
    : [];
  thinking.forEach((block) =>
    ledger.signed.set(keyOf(block as Block)!, {
      model: String(body.model),
      text: (block as Block).thinking,
      reply: id,
    }),
  );
  if (thinking.length > 0)
    ledger.replies.set(
      id,
      thinking.map((b) => keyOf(b as Block)!),
    );
  return [
    ...thinking,
    ...(reply.serverTools ?? []).flatMap((tool) => serverBlocks(tool, nextId)),
    ...(reply.text ? [{ type: "text", text: reply.text }] : []),
    ...(reply.calls ?? []).map((call) => ({
      type: "tool_use",
      id: `toolu_${nextId()}`,
      name: call.name,
      input: call.args ?? {},
    })),
  ];
}

const message = (reply: ScriptedReply, body: Record<string, unknown>, id: string, blocks: unknown[]) => ({
  id,
  type: "message",
  role: "assistant",
  model: body.model,
  content: blocks,
  stop_reason: reply.calls?.length ? "tool_use" : "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

function stream(reply: ScriptedReply, issue: Parameters<ProviderApi<AnthropicLedger>["json"]>[1]) {
  const id = `msg_${issue.nextId()}`;
  const done = message(reply, issue.body, id, content(reply, issue, id));
  const frames = [
    sse({ type: "message_start", message: { ...done, content: [], stop_reason: null } }, "message_start"),
  ];
  const cuts: StreamedReply["cuts"] = {};
  (done.content as Array<Record<string, unknown>>).forEach((block, index) => {
    const event = (data: Record<string, unknown>) => sse({ ...data, index }, data.type as string);
    if (block.type === "text") {
      frames.push(event({ type: "content_block_start", content_block: { type: "text", text: "" } }));
      for (const word of splitText(block.text as string)) {
        frames.push(event({ type: "content_block_delta", delta: { type: "text_delta", text: word } }));
        cuts.text ??= frames.length;
      }
    } else if (block.type === "thinking") {
      frames.push(
        event({ type: "content_block_start", content_block: { type: "thinking", thinking: "", signature: "" } }),
      );
      frames.push(event({ type: "content_block_delta", delta: { type: "thinking_delta", thinking: block.thinking } }));
      cuts.thinking ??= frames.length;
      frames.push(
        event({ type: "content_block_delta", delta: { type: "signature_delta", signature: block.signature } }),
      );
    } else if (block.type === "tool_use" || block.type === "server_tool_use") {
      frames.push(event({ type: "content_block_start", content_block: { ...block, input: {} } }));
      frames.push(
        event({
          type: "content_block_delta",
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        }),
      );
      if (block.type === "server_tool_use") cuts["server-tool"] ??= frames.length;
    } else {
      // A redacted thinking block or a server tool's result comes whole.
      frames.push(event({ type: "content_block_start", content_block: block }));
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
  return { contentType: "text/event-stream", frames, cuts };
}

export const anthropic: ProviderApi<AnthropicLedger> = {
  name: "anthropic",
  newLedger: () => ({ signed: new Map(), replies: new Map() }),
  route: (path, body) => (path === "/anthropic/v1/messages" ? { stream: body.stream === true } : undefined),
  validate: anthropicError,
  lastTurn,
  json: (reply, issue) => {
    const id = `msg_${issue.nextId()}`;
    return message(reply, issue.body, id, content(reply, issue, id));
  },
  stream,
};
