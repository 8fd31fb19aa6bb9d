/**
 * Amazon Bedrock Converse (`POST /model/<id>/converse`) and ConverseStream (`/converse-stream`,
 * answered in the AWS event-stream binary framing).
 *
 * History rules, from https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 * and API_runtime_ToolUseBlock.html (`toolUseId` matches `[a-zA-Z0-9_-]+`), and the 400
 * `ValidationException` texts the service returns (alternating roles starting with the user,
 * `toolResult` blocks answering the previous turn's `toolUse` blocks, non-empty content and text).
 * Strict where no report quotes the case: a tool result's blank text is rejected as any blank text is (the
 * service's own rule for an error result is "The content field at messages.N.content.0.toolResult cannot be empty
 * when status value is error.", CopilotKit#1964; ChatBedrockConverse sends `""` as a blank text block), and a
 * reasoning block's signature must be one this emulator issued for its text, worded as Anthropic words it. Claude
 * 4.6 and newer take no assistant prefill, on Bedrock as on Anthropic's API (the 4.6 migration guide).
 */
import { crc32 } from "node:zlib";
import type { ProviderApi } from "./server.js";
import { splitText, type LastTurn, type Rejection, type ScriptedReply } from "./script.js";

interface Block {
  text?: string;
  toolUse?: { toolUseId?: string };
  toolResult?: { toolUseId?: string; content?: Array<{ text?: string }> };
  reasoningContent?: { reasoningText?: { text?: string; signature?: string } };
}

/** What Bedrock signed: each reasoning block's signature, with its text. */
type BedrockLedger = Map<string, string>;
const modelOf = (path: string) => decodeURIComponent(/^\/model\/([^/]+)\//.exec(path)?.[1] ?? "");
interface Message {
  role: string;
  content: Block[];
}

const reject = (message: string): Rejection => ({
  status: 400,
  headers: { "x-amzn-errortype": "ValidationException" },
  body: { message },
});
const VALID_ID = /^[a-zA-Z0-9_-]+$/;
const ids = (m: Message | undefined, key: "toolUse" | "toolResult") =>
  (m?.content ?? []).filter((b) => b[key]).map((b) => b[key]!.toolUseId);

export function bedrockError(
  body: Record<string, unknown>,
  ledger: BedrockLedger,
  path: string,
): Rejection | undefined {
  const messages = (body.messages ?? []) as Message[];
  if (/claude-(opus|sonnet|haiku)-4-([6-9]|\d\d)/.test(modelOf(path)) && messages.at(-1)?.role === "assistant") {
    return reject(
      "This model does not support assistant message prefill. The conversation must end with a user message.",
    );
  }
  if (messages[0] && messages[0].role !== "user") {
    return reject(
      "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
    );
  }
  for (const [i, m] of messages.entries()) {
    if (messages[i - 1]?.role === m.role) {
      return reject(
        "A conversation must alternate between user and assistant roles. " +
          "Make sure the conversation alternates between user and assistant roles and try again.",
      );
    }
    if (m.content.length === 0) {
      return reject(
        `The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`,
      );
    }
    for (const [j, b] of m.content.entries()) {
      if (b.text !== undefined && !b.text.trim()) {
        return reject(
          `The text field in the ContentBlock object at messages.${i}.content.${j} is blank. Add text to the text field, and try again.`,
        );
      }
      const blank = b.toolResult?.content?.findIndex((c) => c.text !== undefined && !c.text.trim()) ?? -1;
      if (blank >= 0) {
        return reject(
          `The text field in the ContentBlock object at messages.${i}.content.${j}.toolResult.content.${blank} is blank. Add text to the text field, and try again.`,
        );
      }
      const reasoning = b.reasoningContent?.reasoningText;
      if (reasoning?.signature !== undefined && ledger.get(reasoning.signature) !== reasoning.text) {
        return reject(`messages.${i}.content.${j}: Invalid \`signature\` in \`reasoningContent\` block`);
      }
      const id = b.toolUse?.toolUseId ?? b.toolResult?.toolUseId;
      if ((b.toolUse || b.toolResult) && !VALID_ID.test(id ?? "")) {
        const kind = b.toolUse ? "toolUse" : "toolResult";
        return reject(
          `1 validation error detected: Value '${id}' at 'messages.${i + 1}.member.content.${j + 1}.member.${kind}.toolUseId' ` +
            "failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
        );
      }
    }
    const results = ids(m, "toolResult");
    const calls = ids(messages[i - 1], "toolUse");
    if (results.length > calls.length) {
      return reject(
        `The number of toolResult blocks at messages.${i}.content exceeds the number of toolUse blocks of previous turn.`,
      );
    }
    const missing = ids(m, "toolUse").filter((id) => !ids(messages[i + 1], "toolResult").includes(id));
    if (missing.length > 0)
      return reject(
        `Expected toolResult blocks at messages.${i + 1}.content for the following Ids: ${missing.join(", ")}`,
      );
  }
  return undefined;
}

function lastTurn(body: Record<string, unknown>): LastTurn {
  const last = ((body.messages ?? []) as Message[]).at(-1);
  if (!last) return { role: "none", text: "" };
  if (last.content.some((b) => b.toolResult)) return { role: "tool", text: "" };
  return {
    role: last.role === "assistant" ? "assistant" : "user",
    text: last.content.map((b) => b.text ?? "").join(""),
  };
}

function content(reply: ScriptedReply, { nextId, ledger }: Parameters<ProviderApi<BedrockLedger>["json"]>[1]) {
  const signature = `sig-${nextId()}`;
  if (reply.thinking) ledger.set(signature, reply.thinking);
  return [
    ...(reply.thinking ? [{ reasoningContent: { reasoningText: { text: reply.thinking, signature } } }] : []),
    ...(reply.text ? [{ text: reply.text }] : []),
    ...(reply.calls ?? []).map((call) => ({
      toolUse: { toolUseId: `tooluse_${nextId()}`, name: call.name, input: call.args ?? {} },
    })),
  ];
}

const stopReason = (reply: ScriptedReply) => (reply.calls?.length ? "tool_use" : "end_turn");
const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** One AWS event-stream message: prelude (lengths + CRC), string headers, JSON payload, message CRC. */
function eventFrame(eventType: string, payload: unknown): Uint8Array {
  const headers = Buffer.concat(
    Object.entries({ ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" }).map(
      ([name, value]) => {
        const n = Buffer.from(name);
        const v = Buffer.from(value);
        const length = Buffer.alloc(2);
        length.writeUInt16BE(v.length);
        return Buffer.concat([Buffer.from([n.length]), n, Buffer.from([7]), length, v]);
      },
    ),
  );
  const body = Buffer.from(JSON.stringify(payload));
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(12 + headers.length + body.length + 4, 0);
  prelude.writeUInt32BE(headers.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, headers, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(message));
  return Buffer.concat([message, crc]);
}

function stream(reply: ScriptedReply, issue: Parameters<ProviderApi<BedrockLedger>["json"]>[1]) {
  const frames = [eventFrame("messageStart", { role: "assistant" })];
  let beforeHang = 0;
  content(reply, issue).forEach((block, contentBlockIndex) => {
    const delta = (d: unknown) => frames.push(eventFrame("contentBlockDelta", { contentBlockIndex, delta: d }));
    if ("text" in block) {
      for (const word of splitText(block.text ?? "")) {
        delta({ text: word });
        beforeHang ||= frames.length;
      }
    } else if ("reasoningContent" in block) {
      delta({ reasoningContent: { text: block.reasoningContent.reasoningText.text } });
      delta({ reasoningContent: { signature: block.reasoningContent.reasoningText.signature } });
    } else {
      const { toolUseId, name, input } = block.toolUse;
      frames.push(eventFrame("contentBlockStart", { contentBlockIndex, start: { toolUse: { toolUseId, name } } }));
      delta({ toolUse: { input: JSON.stringify(input) } });
    }
    frames.push(eventFrame("contentBlockStop", { contentBlockIndex }));
  });
  frames.push(eventFrame("messageStop", { stopReason: stopReason(reply) }));
  frames.push(eventFrame("metadata", { usage, metrics: { latencyMs: 1 } }));
  return { contentType: "application/vnd.amazon.eventstream", frames, cuts: beforeHang ? { text: beforeHang } : {} };
}

export const bedrock: ProviderApi<BedrockLedger> = {
  name: "bedrock",
  newLedger: () => new Map(),
  route: (path) => {
    const match = /^\/model\/[^/]+\/(converse|converse-stream)$/.exec(path);
    return match ? { stream: match[1] === "converse-stream" } : undefined;
  },
  validate: bedrockError,
  lastTurn,
  json: (reply, issue) => ({
    output: { message: { role: "assistant", content: content(reply, issue) } },
    stopReason: stopReason(reply),
    usage,
    metrics: { latencyMs: 1 },
  }),
  stream,
};
