/**
 * What each provider rejects in a chat history, written independently of the
 * repair engine so the tests judge its output against the providers' rules,
 * not against itself. Error texts imitate the providers' own.
 */
import type { BaseMessage } from "@langchain/core/messages";

export type ProviderProfile = "anthropic" | "openai" | "bedrock" | "gemini" | "mistral";
export const PROVIDER_PROFILES: readonly ProviderProfile[] = ["anthropic", "openai", "bedrock", "gemini", "mistral"];
/** The profiles above, plus ChatOpenAI on the Responses API (`useResponsesApi`), which sends calls from elsewhere. */
export type WireProfile = ProviderProfile | "openai-responses";
export const WIRE_PROFILES: readonly WireProfile[] = [...PROVIDER_PROFILES, "openai-responses"];

type Role = "human" | "ai" | "tool" | "system" | "other";
const role = (m: BaseMessage): Role => {
  const t = m.type as string;
  return t === "human" || t === "ai" || t === "tool" || t === "system" ? t : "other";
};
type Loose = Record<string, unknown>;
const list = (value: unknown): Loose[] =>
  Array.isArray(value) ? value.filter((v) => typeof v === "object" && v !== null) : [];
const idOf = (item: Loose) => String(item.call_id ?? item.id ?? "");
const toolCallIds = (m: BaseMessage) => list((m as unknown as Loose).tool_calls).map(idOf);
const contentCalls = (m: BaseMessage, types: string[]) => list(m.content).filter((b) => types.includes(String(b.type)));

/**
 * The ids of the calls an AIMessage puts on the wire, as each LangChain converter builds the request
 * (`invalid_tool_calls` is read by none of them):
 * - anthropic: `_convertMessagesToAnthropicPayload` sends the content's `tool_use` blocks, then the
 *   `tool_calls` missing from them; with string content, `tool_calls` only;
 * - openai: `convertMessagesToCompletionsMessageParams` sends `tool_calls`, or when it is empty
 *   `additional_kwargs.tool_calls`;
 * - openai-responses: `convertMessagesToResponsesInput` replays `response_metadata.output` as stored
 *   when every item is typed (its `function_call` items), else as openai;
 * - gemini: `convertMessageContentToParts` sends content `tool_use`/`tool_call` blocks and `tool_calls`;
 * - bedrock: `convertAIMessageToConverseMessage` sends `tool_calls` only;
 * - mistral: `convertMessagesToMistralMessages` sends `tool_calls` (it also drops calls no ToolMessage
 *   answers anywhere, which this model does not: it stays as strict as the API).
 */
export function sentCallIds(profile: WireProfile, m: BaseMessage): string[] {
  if (role(m) !== "ai") return [];
  const calls = toolCallIds(m);
  const kwargsCalls = () => list((m.additional_kwargs as Loose | undefined)?.tool_calls).map(idOf);
  switch (profile) {
    case "anthropic": {
      if (typeof m.content === "string") return calls;
      const blocks = contentCalls(m, ["tool_use"]).map(idOf);
      return [...blocks, ...calls.filter((id) => !blocks.includes(id))];
    }
    case "openai":
      return calls.length > 0 ? calls : kwargsCalls();
    case "openai-responses": {
      const output = (m.response_metadata as Loose | undefined)?.output;
      if (Array.isArray(output) && output.length > 0 && output.every((item) => typeof item?.type === "string")) {
        return list(output)
          .filter((item) => item.type === "function_call" || item.type === "custom_tool_call")
          .map(idOf);
      }
      return calls.length > 0 ? calls : kwargsCalls();
    }
    case "gemini":
      return [...contentCalls(m, ["tool_use", "tool_call"]).map(idOf), ...calls];
    case "bedrock":
    case "mistral":
      return calls;
  }
}

const resultId = (m: BaseMessage) => (m as { tool_call_id?: string }).tool_call_id;
// Anthropic: "text content blocks must be non-empty"; a message of only such blocks has no content.
const isEmpty = (m: BaseMessage) =>
  typeof m.content === "string"
    ? m.content.trim() === ""
    : Array.isArray(m.content) &&
      m.content.every((b) => typeof b === "object" && b.type === "text" && !String(b.text ?? "").trim());

/**
 * The roles whose empty messages each provider rejects, as its client sends them. A reply with neither text nor
 * calls is rejected everywhere. Anthropic: "all messages must have non-empty content" (a tool_result may be empty);
 * Gemini: "contents.parts must not be empty" (a function response carries `{ result: "" }`); Bedrock: blank text,
 * a tool result's too, and ChatBedrockConverse refuses an empty user turn; OpenAI and Mistral take an empty user
 * turn or tool result.
 */
const EMPTY_REJECTED: Record<WireProfile, readonly Role[]> = {
  anthropic: ["human", "ai"],
  gemini: ["human", "ai"],
  bedrock: ["human", "ai", "tool"],
  openai: ["ai"],
  "openai-responses": ["ai"],
  mistral: ["ai"],
};

/** Results right after an AIMessage with calls: the ids of the contiguous ToolMessages that follow it. */
function followingResults(messages: readonly BaseMessage[], i: number): string[] {
  const ids: string[] = [];
  for (let j = i + 1; j < messages.length && role(messages[j]!) === "tool"; j++) ids.push(resultId(messages[j]!) ?? "");
  return ids;
}

/** The index of the first SystemMessage after a message of another role: one sent mid-history. */
const midHistorySystem = (messages: readonly BaseMessage[]) =>
  messages.findIndex((m, i) => role(m) === "system" && messages.slice(0, i).some((p) => role(p) !== "system"));

/** Mistral: "Unexpected role 'system' after role 'assistant'" (swarmauri#162), and so after any other turn. */
function systemAfterTurns(messages: readonly BaseMessage[]): string | undefined {
  const i = midHistorySystem(messages);
  if (i <= 0) return undefined;
  const before = role(messages[i - 1]!);
  return `Unexpected role 'system' after role '${before === "ai" ? "assistant" : before === "human" ? "user" : before}'`;
}

function systemOnlyFirst(messages: readonly BaseMessage[]): string | undefined {
  return midHistorySystem(messages) > 0 ? "System messages are only permitted as the first passed message." : undefined;
}

function pairing(
  profile: WireProfile,
  messages: readonly BaseMessage[],
  unanswered: (i: number, ids: string[]) => string,
  orphan: (i: number) => string,
  duplicate: (id: string) => string,
): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (role(m) === "ai") {
      const calls = sentCallIds(profile, m);
      if (calls.length === 0) continue;
      const results = followingResults(messages, i);
      const seen = new Set<string>();
      for (const id of results) {
        if (seen.has(id)) return duplicate(id);
        seen.add(id);
        if (!calls.includes(id)) return orphan(i + 1);
      }
      const missing = calls.filter((id) => !seen.has(id));
      if (missing.length > 0) return unanswered(i, missing);
      i += results.length;
    } else if (role(m) === "tool") {
      return orphan(i);
    }
  }
  return undefined;
}

function emptyContent(profile: WireProfile, messages: readonly BaseMessage[]): string | undefined {
  const i = messages.findIndex(
    (m) =>
      EMPTY_REJECTED[profile].includes(role(m)) &&
      isEmpty(m) &&
      !(role(m) === "ai" && sentCallIds(profile, m).length > 0),
  );
  return i >= 0
    ? `messages.${i}: all messages must have non-empty content except for the optional final assistant message`
    : undefined;
}

/** The first sent call id that `check` rejects (with the ids sent before it), as `error(id, i)`. */
function callIdRule(
  profile: WireProfile,
  messages: readonly BaseMessage[],
  check: (id: string, earlier: Set<string>) => string | undefined,
): string | undefined {
  const earlier = new Set<string>();
  for (const m of messages) {
    for (const id of sentCallIds(profile, m)) {
      const error = check(id, earlier);
      if (error) return error;
      earlier.add(id);
    }
  }
  return undefined;
}

// Anthropic Messages API: `tool_use.id` must match ^[a-zA-Z0-9_-]+$ and be unique in the request.
const anthropicIds = (id: string, earlier: Set<string>) =>
  !/^[a-zA-Z0-9_-]+$/.test(id)
    ? "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
    : earlier.has(id)
      ? "`tool_use` ids must be unique"
      : undefined;
// OpenAI Chat Completions request schema: `tool_calls[].id` is a string of 1 to 40 characters.
const openAiIds = (id: string) =>
  id === ""
    ? "Invalid 'tool_calls[].id': empty string. Expected a string with minimum length 1, but got an empty string instead."
    : id.length > 40
      ? `Invalid 'tool_calls[].id': string too long. Expected a string with maximum length 40, but got a string with length ${id.length} instead.`
      : undefined;
// OpenAI Responses API: `call_id` of a function_call item must be non-empty.
const responsesIds = (id: string) => (id === "" ? "Invalid 'input[].call_id': empty string." : undefined);
// Bedrock Converse: `toolUse.toolUseId` must satisfy [a-zA-Z0-9_-]+ (at most 64 characters).
const bedrockIds = (id: string) =>
  /^[a-zA-Z0-9_-]{1,64}$/.test(id)
    ? undefined
    : `Value '${id}' at 'toolUse.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`;

/**
 * What every converter throws on before sending anything: a `RemoveMessage` left in the list ("Unknown message
 * type: remove", with each client's wording), and content blocks only a stream carries, which the converters of
 * `rejectsStreamBlocks` refuse (ChatAnthropic sends them, and the API rejects their type).
 */
function unsendable(profile: WireProfile, messages: readonly BaseMessage[]): string | undefined {
  if (messages.some((m) => (m.type as string) === "remove")) return "Unknown message type: remove";
  const streamBlock = messages
    .flatMap((m) => list(m.content))
    .find((b) => b.type === "input_json_delta" || b.type === "tool_call_chunk");
  if (streamBlock === undefined || !STREAM_BLOCK_ERRORS[profile]) return undefined;
  return STREAM_BLOCK_ERRORS[profile]!(String(streamBlock.type));
}

const STREAM_BLOCK_ERRORS: Partial<Record<WireProfile, (type: string) => string>> = {
  anthropic: (type) => `Input tag '${type}' found using 'type' does not match any of the expected tags`,
  gemini: (type) => `Unknown content type ${type}`,
  bedrock: (type) => `Unsupported content block type: ${type}`,
  mistral: () => 'Mistral only supports types "text" or "image_url" for complex message types.',
};

/**
 * The first turn must be the user's: Bedrock Converse always ("A conversation must start with a user
 * message"); Gemini (reports of chatbot-ui#1656); Anthropic, strictly (the Messages API reference once
 * required it; first-party reports from 2024-12 say it is accepted, and Anthropic models on Bedrock reject it).
 */
const OPENING_ERRORS: Partial<Record<WireProfile, string>> = {
  anthropic: 'messages: first message must use the "user" role',
  bedrock:
    "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
  gemini: "First content should be with role 'user', got model",
};

function opening(profile: WireProfile, messages: readonly BaseMessage[]): string | undefined {
  const first = messages.find((m) => role(m) !== "system");
  return first !== undefined && role(first) === "ai" ? OPENING_ERRORS[profile] : undefined;
}

/** Two assistant turns in a row (a partial answer kept, then a regenerated one), as each provider words it. */
const REPEATED_ASSISTANT_ERRORS: Partial<Record<WireProfile, string>> = {
  anthropic:
    'messages: roles must alternate between "user" and "assistant", but found multiple "assistant" roles in a row',
  bedrock:
    "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
  gemini: "Please ensure that multiturn requests alternate between user and model.",
};

function repeatedAssistant(profile: WireProfile, messages: readonly BaseMessage[]): string | undefined {
  const error = REPEATED_ASSISTANT_ERRORS[profile];
  if (error === undefined) return undefined;
  return consecutiveTurns(messages, "tool").some(([a, b]) => a === "assistant" && b === "assistant")
    ? error
    : undefined;
}

/** Responses API: a replayed reasoning item must be followed by the item it produced. */
function loneReasoning(messages: readonly BaseMessage[]): string | undefined {
  for (const m of messages) {
    const output = list((m.response_metadata as Loose | undefined)?.output);
    if (output.length === 0 || !output.every((item) => typeof item.type === "string")) continue;
    const lone = output.find(
      (item, i) => item.type === "reasoning" && (i + 1 === output.length || output[i + 1]!.type === "reasoning"),
    );
    if (lone) return `Item '${String(lone.id)}' of type 'reasoning' was provided without its required following item.`;
  }
  return undefined;
}

/**
 * Anthropic: a thinking block carries its signature, a redacted one its data ("messages.N.content.M.thinking.signature:
 * Field required"; an empty one: "Invalid `signature` in `thinking` block", pydantic-ai#7597).
 */
function thinkingSignatures(messages: readonly BaseMessage[]): string | undefined {
  for (const [i, m] of messages.entries()) {
    if (role(m) !== "ai") continue;
    for (const [j, b] of list(m.content).entries()) {
      if (b.type === "thinking" && b.signature === undefined)
        return `messages.${i}.content.${j}.thinking.signature: Field required`;
      if (b.type === "thinking" && (typeof b.signature !== "string" || b.signature === ""))
        return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      if (b.type === "redacted_thinking" && (typeof b.data !== "string" || b.data === ""))
        return `messages.${i}.content.${j}.redacted_thinking.data: Field required`;
    }
  }
  return undefined;
}

/**
 * Anthropic, for the request's `model`: each thinking block's signature is bound to the model that made it
 * ("Invalid `signature` in `thinking` block" after a model switch, UncommonRoute#19, llxprt-code#2335). Dates and
 * `-latest` name one model.
 */
export function thinkingOfAnotherModel(messages: readonly BaseMessage[], model: string): string | undefined {
  const base = (name: string) => name.replace(/-(\d{8}|latest)$/, "");
  for (const [i, m] of messages.entries()) {
    const made = (m.response_metadata as Loose | undefined)?.model;
    if (role(m) !== "ai" || typeof made !== "string" || base(made) === base(model)) continue;
    const j = list(m.content).findIndex((b) => b.type === "thinking" || b.type === "redacted_thinking");
    if (j >= 0) return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
  }
  return undefined;
}

const isServerResult = (b: Loose) =>
  typeof b.type === "string" && b.type !== "tool_result" && b.type.endsWith("_tool_result");

/**
 * Anthropic server tools: a `server_tool_use` has its result after it in its reply, or in the next reply when only
 * client tool results come between (the API runs it then), or is still pending where the request ends; a result has
 * its use before it (litellm#33546, claude-code#64383).
 */
function serverToolPairs(messages: readonly BaseMessage[]): string | undefined {
  const replies = messages.map((m, i) => ({ m, i })).filter(({ m }) => role(m) === "ai");
  // The reply after the client tools' results of a reply that called them, as the API continues it.
  const linked = (at: number, step: 1 | -1): BaseMessage | undefined => {
    for (let i = at + step; i >= 0 && i < messages.length; i += step) {
      if (role(messages[i]!) === "tool") continue;
      if (role(messages[i]!) !== "ai") return undefined;
      return sentCallIds("anthropic", messages[step === 1 ? at : i]!).length > 0 ? messages[i] : undefined;
    }
    return undefined;
  };
  for (const { m, i } of replies) {
    const content = list(m.content);
    // The API runs an open use with the client tools' results that end the request, or continues a paused turn.
    const after = messages.slice(i + 1);
    const paused = (m.response_metadata as Loose | undefined)?.stop_reason === "pause_turn";
    const pending = after.every((n) => role(n) === "tool") && (after.length > 0 || paused);
    for (const [j, b] of content.entries()) {
      if (b.type === "server_tool_use") {
        const answers = (x: Loose) => isServerResult(x) && x.tool_use_id === b.id;
        if (pending || content.slice(j + 1).some(answers) || list(linked(i, 1)?.content).some(answers)) continue;
        return `messages.${i}: \`${String(b.name)}\` tool use with id \`${String(b.id)}\` was found without a corresponding \`${String(b.name)}_tool_result\` block`;
      }
      if (isServerResult(b)) {
        const makes = (x: Loose) => x.type === "server_tool_use" && x.id === b.tool_use_id;
        if (content.slice(0, j).some(makes) || list(linked(i, -1)?.content).some(makes)) continue;
        return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`${String(b.type)}\` blocks: ${String(b.tool_use_id)}. Each \`${String(b.type)}\` block must have a corresponding \`server_tool_use\` block before it.`;
      }
    }
  }
  return undefined;
}

/** Responses: the items ChatOpenAI sends for a reply, replayed output or, without it, its reasoning and tool outputs. */
function responsesItems(m: BaseMessage): { items: Loose[]; replayed: boolean } {
  const output = list((m.response_metadata as Loose | undefined)?.output);
  if (output.length > 0 && output.every((item) => typeof item.type === "string"))
    return { items: output, replayed: true };
  const kwargs = (m.additional_kwargs ?? {}) as Loose;
  const reasoning = kwargs.reasoning as Loose | undefined;
  return { items: [...(reasoning ? [reasoning] : []), ...list(kwargs.tool_outputs)], replayed: false };
}

const UNFINISHED = ["in_progress", "searching", "interpreting", "generating", "calling", "incomplete"];

/**
 * Responses: an item the API cannot find, as it answers for one `store: false` never kept ("Item with id 'rs_…' not
 * found. Items are not persisted when `store` is set to false.", langchain#38372): a reasoning item sent by id only
 * (no `encrypted_content`) from a response stored with `store: false` or never completed, and, strictly, a
 * hosted-tool item sent before it finished.
 */
function unkeptItems(messages: readonly BaseMessage[]): string | undefined {
  for (const m of messages) {
    if (role(m) !== "ai") continue;
    const metadata = (m.response_metadata ?? {}) as Loose;
    const { items, replayed } = responsesItems(m);
    const unkept = replayed
      ? metadata.store === false
      : metadata.model_provider === "openai" && metadata.status === undefined;
    const item = items.find(
      (it) =>
        (it.type === "reasoning" && unkept && !it.encrypted_content) ||
        (typeof it.type === "string" && it.type.endsWith("_call") && UNFINISHED.includes(String(it.status))),
    );
    if (item) {
      return `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`;
    }
  }
  return undefined;
}

/**
 * Gemini 3: the first call of each reply of the current turn (after the last user turn) carries its thought
 * signature ("Function call is missing a thought_signature in functionCall parts", langchain-google#1364). A reply
 * Gemini made with no signature at all came from a model that does not sign (2.5 without thinking), whose requests
 * this does not check. The `gemini` profile is a model that does not check signatures (2.5); this is Gemini 3's.
 */
export function geminiSignatures(messages: readonly BaseMessage[]): string | undefined {
  const turn = messages.map((m) => role(m)).lastIndexOf("human") + 1;
  for (const [i, m] of messages.entries()) {
    if (i < turn || role(m) !== "ai") continue;
    const first = sentCallIds("gemini", m)[0];
    if (first === undefined) continue;
    const signatures = (m.additional_kwargs?.__gemini_function_call_thought_signatures__ ?? {}) as Loose;
    const signed = (value: unknown) => typeof value === "string" && value !== "";
    const geminiMade = ["google-genai", "google-vertexai"].includes(
      String((m.response_metadata as Loose | undefined)?.model_provider),
    );
    if (geminiMade && !Object.values(signatures).some(signed) && !list(m.content).some((b) => signed(b.signature)))
      continue;
    if (!signed(signatures[first])) {
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:search\` , position ${i + 1}.`;
    }
  }
  return undefined;
}

/**
 * What each provider answers a model request that ends on a reply: the models without prefill (Claude 4.6 and
 * newer, on Anthropic and on Bedrock), Gemini and Mistral reject it; a turn Anthropic paused (`pause_turn`) is sent
 * back so. Judged apart from `providerError`, which takes a history as a prefill-capable model does.
 */
const REQUEST_END_ERRORS: Partial<Record<WireProfile, string>> = {
  anthropic: "This model does not support assistant message prefill. The conversation must end with a user message.",
  bedrock: "This model does not support assistant message prefill. The conversation must end with a user message.",
  gemini: "Please ensure that multiturn requests ends with a user role or a function response.",
  mistral: "Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant",
};

/** The error `profile` gives a model request (`messages` as sent) for how it ends, if any. */
export function requestEndError(profile: WireProfile, messages: readonly BaseMessage[]): string | undefined {
  const last = messages.filter((m) => role(m) !== "system").at(-1);
  if (
    last === undefined ||
    role(last) !== "ai" ||
    (last.response_metadata as Loose | undefined)?.stop_reason === "pause_turn"
  )
    return undefined;
  return REQUEST_END_ERRORS[profile];
}

/** The rules every profile applies first: what no converter sends, and the order of turns. */
const turnOrder = (profile: WireProfile, messages: readonly BaseMessage[]) =>
  unsendable(profile, messages) ?? opening(profile, messages) ?? repeatedAssistant(profile, messages);

/** Roles as the provider's API sees them after the LangChain adapter: tool results are sent as user turns. */
function consecutiveTurns(messages: readonly BaseMessage[], mapTool: "user" | "tool"): Array<[string, string, number]> {
  const turns: Array<[string, string, number]> = [];
  let prev: string | undefined;
  messages.forEach((m, i) => {
    const r = role(m);
    if (r === "system" || r === "other") return;
    const api = r === "human" ? "user" : r === "ai" ? "assistant" : mapTool;
    if (prev !== undefined) turns.push([prev, api, i]);
    prev = api;
  });
  return turns;
}

const PROFILE_RULES: Record<WireProfile, (messages: readonly BaseMessage[]) => string | undefined> = {
  anthropic: (messages) =>
    systemOnlyFirst(messages) ??
    thinkingSignatures(messages) ??
    serverToolPairs(messages) ??
    callIdRule("anthropic", messages, anthropicIds) ??
    pairing(
      "anthropic",
      messages,
      (i, ids) =>
        `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      (i) =>
        `messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      (id) => `messages: duplicate \`tool_result\` for \`tool_use_id\` ${id}`,
    ) ??
    emptyContent("anthropic", messages),
  openai: (messages) =>
    callIdRule("openai", messages, openAiIds) ??
    pairing(
      "openai",
      messages,
      (_i, ids) =>
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(", ")}`,
      (i) =>
        `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[${i}].role)`,
      (id) => `Duplicate value for 'tool_call_id' of ${id} in message[0]`,
    ) ??
    emptyContent("openai", messages),
  // Responses API: every function_call needs its function_call_output, and every output its call.
  "openai-responses": (messages) =>
    loneReasoning(messages) ??
    unkeptItems(messages) ??
    callIdRule("openai-responses", messages, responsesIds) ??
    pairing(
      "openai-responses",
      messages,
      (_i, ids) => `No tool output found for function call ${ids[0]}.`,
      (i) =>
        `No tool call found for function call output with call_id ${String((messages[i] as unknown as Loose).tool_call_id)}.`,
      (id) => `Duplicate function_call_output for call_id ${id}.`,
    ) ??
    emptyContent("openai-responses", messages),
  bedrock: (messages) => {
    // The adapter merges consecutive ToolMessages into one user turn; any other repeated user turn is
    // rejected (repeated assistant turns: see `repeatedAssistant`).
    const repeated = consecutiveTurns(messages, "user").some(
      ([a, b, i]) =>
        a === "user" && b === "user" && !(role(messages[i]!) === "tool" && role(messages[i - 1]!) === "tool"),
    );
    if (repeated) {
      return "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.";
    }
    return (
      callIdRule("bedrock", messages, bedrockIds) ??
      pairing(
        "bedrock",
        messages,
        (i, ids) => `Expected toolResult blocks at messages.${i + 1}.content for the following Ids: ${ids.join(", ")}`,
        (i) =>
          `The number of toolResult blocks at messages.${i}.content exceeds the number of toolUse blocks of previous turn.`,
        (id) => `Duplicate toolResult for toolUseId ${id}`,
      ) ??
      emptyContent("bedrock", messages)
    );
  },
  gemini: (messages) => {
    const gemini = "Please ensure that function response turn comes immediately after a function call turn.";
    return (
      systemOnlyFirst(messages) ??
      pairing(
        "gemini",
        messages,
        () => gemini,
        () => gemini,
        () => gemini,
      ) ??
      (consecutiveTurns(messages, "tool").some(([a, b]) => a === "user" && b === "user")
        ? "Please ensure that multiturn requests alternate between user and model."
        : undefined) ??
      emptyContent("gemini", messages)
    );
  },
  mistral: (messages) =>
    systemAfterTurns(messages) ??
    pairing(
      "mistral",
      messages,
      () => "Not the same number of function calls and responses",
      () => "Unexpected role 'tool' after role 'assistant'",
      () => "Not the same number of function calls and responses",
    ) ??
    (consecutiveTurns(messages, "tool").some(([a, b]) => a === "tool" && b === "user")
      ? "Unexpected role 'user' after role 'tool'"
      : undefined) ??
    emptyContent("mistral", messages),
};

/** The error `profile` would return for `messages`, or undefined when it accepts them. */
export function providerError(profile: WireProfile, messages: readonly BaseMessage[]): string | undefined {
  return turnOrder(profile, messages) ?? PROFILE_RULES[profile](messages);
}

/** The profiles of `profiles` (every wire profile unless given) that reject `messages`, with their errors. */
export function rejectingProviders(
  messages: readonly BaseMessage[],
  profiles: readonly WireProfile[] = WIRE_PROFILES,
): Partial<Record<WireProfile, string>> {
  const out: Partial<Record<WireProfile, string>> = {};
  for (const p of profiles) {
    const error = providerError(p, messages);
    if (error) out[p] = error;
  }
  return out;
}
