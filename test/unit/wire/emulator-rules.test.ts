// Each history rule of the emulator, shown firing through the real client on a raw broken history, with the
// provider's error text, before any sanitized history is trusted to pass it. A client not listed for a rule
// sends a history its provider accepts: the table pins what each converter puts on the wire. Then each history,
// repaired by repairMessages, goes through every client again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLIENTS,
  chatModel,
  startEmulator,
  type Client,
  type ProviderEmulator,
} from "../../support/provider-emulator/index.js";
import { repairMessages } from "../../../src/index.js";
import { rulesOf } from "../../support/oracle/expect-accepted.js";
import { human } from "../../support/generators/messages.js";
import { BROKEN } from "./histories.js";

const REJECTED: Record<keyof typeof BROKEN, Partial<Record<Client, string>>> = {
  "a call left unanswered": {
    anthropic: "`tool_use` ids were found without `tool_result` blocks immediately after: c1",
    openai: "The following tool_call_ids did not have response messages: c1",
    "openai-responses": "No tool output found for function call c1.",
    gemini: "the number of function response parts is equal to the number of function call parts",
    bedrock: "Expected toolResult blocks at messages.2.content for the following Ids: c1",
    // ChatMistralAI drops an AIMessage whose calls are all unanswered (and sends user, user, which Mistral accepts).
  },
  "one of two parallel calls unanswered": {
    anthropic: "`tool_use` ids were found without `tool_result` blocks immediately after: c2",
    openai: "The following tool_call_ids did not have response messages: c2",
    "openai-responses": "No tool output found for function call c2.",
    gemini: "the number of function response parts is equal to the number of function call parts",
    bedrock: "Expected toolResult blocks at messages.2.content for the following Ids: c2",
    // ChatMistralAI drops the unanswered call: what remains breaks the order rule.
    mistral: "Unexpected role 'user' after role 'tool'",
  },
  "a result answering no call": {
    anthropic: "unexpected `tool_use_id` found in `tool_result` blocks: cx",
    openai: "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
    "openai-responses": "No tool call found for function call output with call_id cx.",
    gemini: "function response turn comes immediately after a function call turn",
    bedrock:
      "The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.",
    mistral: "Unexpected role 'tool' after role 'assistant'",
  },
  "a result for a call its turn did not make": {
    anthropic: "unexpected `tool_use_id` found in `tool_result` blocks: cx",
    openai: "Invalid parameter: 'tool_call_id' of 'cx' not found in 'tool_calls' of previous message.",
    "openai-responses": "No tool call found for function call output with call_id cx.",
    gemini: "function response turn comes immediately after a function call turn",
    bedrock:
      "The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.",
    mistral: "Not the same number of function calls and responses",
  },
  // Anthropic: kept strict (see the emulator's header); Gemini as users report it.
  "starts with the assistant": {
    // The error body is JSON: the quotes around "user" arrive escaped.
    anthropic: "messages: first message must use the",
    gemini: "First content should be with role 'user', got model",
    bedrock: "A conversation must start with a user message.",
  },
  "starts with a result whose call was trimmed away": {
    anthropic: "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: c0",
    openai: "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
    "openai-responses": "No tool call found for function call output with call_id c0.",
    gemini: "function response turn comes immediately after a function call turn",
    bedrock: "The number of toolResult blocks at messages.0.content exceeds the number of toolUse blocks",
    mistral: "Unexpected role 'tool' after role 'none'",
  },
  "an empty text block": { anthropic: "messages.1.content.0.text: text content blocks must be non-empty" },
  "two user turns in a row": {
    gemini: "multiturn requests alternate between user and model",
    bedrock: "A conversation must alternate between user and assistant roles",
  },
  "a user turn right after tool results": {
    // ChatGoogleGenerativeAI sends a tool result as a user turn; ChatBedrockConverse does not merge it with the next.
    gemini: "multiturn requests alternate between user and model",
    bedrock: "A conversation must alternate between user and assistant roles",
    mistral: "Unexpected role 'user' after role 'tool'",
  },
  "two assistant turns in a row": {
    anthropic: "but found multiple",
    gemini: "function call turn comes immediately after a user turn or after a function response turn",
    bedrock: "A conversation must alternate between user and assistant roles",
  },
  "one call answered twice": {
    openai: "Duplicate value for 'tool_call_id' of c1",
    gemini: "function response turn comes immediately after a function call turn",
    bedrock:
      "The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.",
    mistral: "Not the same number of function calls and responses",
  },
  "a call id used twice": { anthropic: "`tool_use` ids must be unique" },
  "an empty reply": {
    anthropic: "messages.1: all messages must have non-empty content except for the optional final assistant message",
    gemini: "contents[1].parts: contents.parts must not be empty",
    bedrock: "The content field in the Message object at messages.1 is empty.",
  },
  "a blank reply": {
    anthropic: "messages.1.content.0.text: text content blocks must contain non-whitespace text",
    bedrock: "The text field in the ContentBlock object at messages.1.content.0 is blank.",
  },
  "an empty call id": {
    anthropic: "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    openai: "Invalid 'messages[1].tool_calls[0].id': empty string.",
    "openai-responses": "Invalid 'input[2].call_id': empty string.",
    bedrock: "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
    // Gemini pairs calls by position; ChatMistralAI rewrites every id to 9 characters.
  },
  "a blank call id": {
    anthropic: "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    bedrock: "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
  },
  "a call id over 40 characters": {
    openai: "string too long. Expected a string with maximum length 40, but got a string with length 41 instead.",
  },
  // The known upstream exception: ChatGoogleGenerativeAI sends each ToolMessage as its own turn.
  "parallel results (clean)": {
    gemini: "the number of function response parts is equal to the number of function call parts",
  },
  "ends in the assistant's reply": {
    gemini: "Please ensure that multiturn requests ends with a user role or a function response.",
    mistral: "Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant",
  },
  // The Responses API client replays the stored output items as they are.
  "a reasoning item with nothing after it": {
    "openai-responses": "Item 'rs_1' of type 'reasoning' was provided without its required following item.",
  },
};

/**
 * Who still rejects a history once repaired (then sent with the next user message): Gemini's converter sends two
 * results of one turn as two turns (upstream).
 */
const REJECTED_AFTER_REPAIR: Partial<Record<keyof typeof BROKEN, Client[]>> = {
  "one of two parallel calls unanswered": ["gemini"],
  "parallel results (clean)": ["gemini"],
};

/** Histories a client refuses before sending anything. */
const THROWN_BEFORE_SENDING: Partial<Record<keyof typeof BROKEN, Partial<Record<Client, string>>>> = {
  "an empty text block": { bedrock: "Unsupported content block type: text" },
  "a RemoveMessage left in the list": {
    anthropic: 'Message type "remove" is not supported.',
    openai: "Unknown message type: remove",
    "openai-responses": "Unknown message type: remove",
    gemini: "Unknown / unsupported author: remove",
    bedrock: "Unsupported message type: remove",
    mistral: "Unknown message type: remove",
  },
  // ChatAnthropic folds the partial input into the call; the other converters that read content refuse the block.
  "a reply saved mid-stream": {
    gemini: "Unknown content type input_json_delta",
    bedrock: "Unsupported content block type: input_json_delta",
    mistral: 'Mistral only supports types "text" or "image_url" for complex message types.',
  },
};

let emulator: ProviderEmulator;
beforeAll(async () => (emulator = await startEmulator()));
afterAll(() => emulator.close());

describe.each(CLIENTS)("%s on the wire", (client) => {
  const rules = Object.entries(REJECTED).filter(([, by]) => by[client]);
  const allowed = Object.keys(REJECTED).filter(
    (rule) => !REJECTED[rule]![client] && !THROWN_BEFORE_SENDING[rule]?.[client],
  );
  const thrown = Object.entries(THROWN_BEFORE_SENDING).flatMap(([rule, by]) =>
    by?.[client] ? [[rule, by[client]] as const] : [],
  );

  it.each(rules)("rejects %s with the provider's status and text", async (rule, by) => {
    await expect(chatModel(client, emulator.url).invoke(BROKEN[rule]!)).rejects.toThrow(by[client]!);
    expect(emulator.last(client).status).toBe(400);
  });

  it.runIf(thrown.length > 0).each(thrown)("throws on %s before sending it", async (rule, text) => {
    const sent = emulator.requests.length;
    await expect(chatModel(client, emulator.url).invoke(BROKEN[rule]!)).rejects.toThrow(text);
    expect(emulator.requests.length).toBe(sent);
  });

  it("accepts the histories its rules allow", async () => {
    const model = chatModel(client, emulator.url);
    for (const rule of allowed) await expect(model.invoke(BROKEN[rule]!), rule).resolves.toBeDefined();
  });

  it("accepts every history once repaired under its provider's rules, but the known exceptions", async () => {
    const model = chatModel(client, emulator.url);
    for (const [rule, history] of Object.entries(BROKEN)) {
      // The stored thread is repaired; the next user message comes on top, as on the next turn.
      const next = history.at(-1)!.type === "human" ? history.at(-1)! : human("next");
      const stored = history.at(-1) === next ? history.slice(0, -1) : history;
      const sent = model.invoke([...repairMessages(stored, { provider: rulesOf(client) }).messages, next]);
      if (REJECTED_AFTER_REPAIR[rule]?.includes(client)) await expect(sent, rule).rejects.toThrow();
      else await expect(sent, rule).resolves.toBeDefined();
    }
  });
});
