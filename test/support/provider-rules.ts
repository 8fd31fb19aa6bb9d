/**
 * What each provider rejects in a chat history, written independently of the
 * repair engine so the tests judge its output against the providers' rules,
 * not against itself. Error texts imitate the providers' own.
 */
import type { BaseMessage } from "@langchain/core/messages";

export type ProviderProfile = "anthropic" | "openai" | "bedrock" | "gemini" | "mistral";
export const PROVIDER_PROFILES: readonly ProviderProfile[] = ["anthropic", "openai", "bedrock", "gemini", "mistral"];

type Role = "human" | "ai" | "tool" | "system" | "other";
const role = (m: BaseMessage): Role => {
  const t = m.type as string;
  return t === "human" || t === "ai" || t === "tool" || t === "system" ? t : "other";
};
const callIds = (m: BaseMessage): string[] =>
  role(m) === "ai"
    ? [...((m as { tool_calls?: { id?: string }[] }).tool_calls ?? []), ...((m as { invalid_tool_calls?: { id?: string }[] }).invalid_tool_calls ?? [])]
        .map((c) => c.id)
        .filter((id): id is string => !!id)
    : [];
const resultId = (m: BaseMessage) => (m as { tool_call_id?: string }).tool_call_id;
// Anthropic: "text content blocks must be non-empty"; a message of only such blocks has no content.
const isEmpty = (m: BaseMessage) =>
  typeof m.content === "string"
    ? m.content.trim() === ""
    : Array.isArray(m.content) && m.content.every((b) => typeof b === "object" && b.type === "text" && !String(b.text ?? "").trim());

/** Results right after an AIMessage with calls: the ids of the contiguous ToolMessages that follow it. */
function followingResults(messages: readonly BaseMessage[], i: number): string[] {
  const ids: string[] = [];
  for (let j = i + 1; j < messages.length && role(messages[j]!) === "tool"; j++) ids.push(resultId(messages[j]!) ?? "");
  return ids;
}

function systemOnlyFirst(messages: readonly BaseMessage[]): string | undefined {
  const index = messages.findIndex((m, i) => i > 0 && role(m) === "system");
  return index > 0 ? "System messages are only permitted as the first passed message." : undefined;
}

function pairing(messages: readonly BaseMessage[], unanswered: (i: number, ids: string[]) => string, orphan: (i: number) => string, duplicate: (id: string) => string): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (role(m) === "ai") {
      const calls = callIds(m);
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

function emptyContent(messages: readonly BaseMessage[]): string | undefined {
  const i = messages.findIndex((m) => isEmpty(m) && !(role(m) === "ai" && callIds(m).length > 0));
  return i >= 0 ? `messages.${i}: all messages must have non-empty content except for the optional final assistant message` : undefined;
}

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

const RULES: Record<ProviderProfile, (messages: readonly BaseMessage[]) => string | undefined> = {
  anthropic: (messages) =>
    systemOnlyFirst(messages) ??
    pairing(
      messages,
      (i, ids) => `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      (i) => `messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      (id) => `messages: duplicate \`tool_result\` for \`tool_use_id\` ${id}`,
    ) ??
    emptyContent(messages),
  openai: (messages) =>
    pairing(
      messages,
      (_i, ids) => `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(", ")}`,
      (i) => `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[${i}].role)`,
      (id) => `Duplicate value for 'tool_call_id' of ${id} in message[0]`,
    ) ??
    emptyContent(messages),
  bedrock: (messages) => {
    // The adapter merges consecutive ToolMessages into one user turn; any other repeated user turn is
    // rejected. (Two assistant turns in a row are out of scope: the sanitizer does not merge them.)
    const repeated = consecutiveTurns(messages, "user").some(
      ([a, b, i]) => a === "user" && b === "user" && !(role(messages[i]!) === "tool" && role(messages[i - 1]!) === "tool"),
    );
    if (repeated) {
      return "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.";
    }
    return (
      pairing(
        messages,
        (i, ids) => `Expected toolResult blocks at messages.${i + 1}.content for the following Ids: ${ids.join(", ")}`,
        (i) => `The number of toolResult blocks at messages.${i}.content exceeds the number of toolUse blocks of previous turn.`,
        (id) => `Duplicate toolResult for toolUseId ${id}`,
      ) ?? emptyContent(messages)
    );
  },
  gemini: (messages) => {
    const gemini = "Please ensure that function response turn comes immediately after a function call turn.";
    return (
      systemOnlyFirst(messages) ??
      pairing(messages, () => gemini, () => gemini, () => gemini) ??
      (consecutiveTurns(messages, "tool").some(([a, b]) => a === "user" && b === "user")
        ? "Please ensure that multiturn requests alternate between user and model."
        : undefined) ??
      emptyContent(messages)
    );
  },
  mistral: (messages) =>
    pairing(
      messages,
      () => "Not the same number of function calls and responses",
      () => "Unexpected role 'tool' after role 'assistant'",
      () => "Not the same number of function calls and responses",
    ) ??
    (consecutiveTurns(messages, "tool").some(([a, b]) => a === "tool" && b === "user") ? "Unexpected role 'user' after role 'tool'" : undefined) ??
    emptyContent(messages),
};

/** The error `profile` would return for `messages`, or undefined when it accepts them. */
export function providerError(profile: ProviderProfile, messages: readonly BaseMessage[]): string | undefined {
  return RULES[profile](messages);
}

/** The profiles that reject `messages`, with their errors. */
export function rejectingProviders(messages: readonly BaseMessage[]): Partial<Record<ProviderProfile, string>> {
  const out: Partial<Record<ProviderProfile, string>> = {};
  for (const p of PROVIDER_PROFILES) {
    const error = providerError(p, messages);
    if (error) out[p] = error;
  }
  return out;
}
