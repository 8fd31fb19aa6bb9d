/**
 * The rules of one provider only: which provider patterns (`applies: ["provider"]` in PATTERNS) each provider's API
 * needs repaired, as its LangChain client sends a history. Everything else the sanitizer repairs is rejected by
 * every provider (or by the model named, for `applies: ["model"]`).
 */
import { baseModel } from "../messages/anthropic-blocks.js";
import { PATTERNS, type PatternId } from "./patterns.js";

/** A provider whose own rules the sanitizer knows. */
export type ProviderName = "anthropic" | "bedrock" | "gemini" | "mistral" | "openai";

/**
 * Whose rules a repair applies beyond what every provider rejects: one provider's, or `"strictest"`, every
 * provider's at once (an app that switches models, or sends one history to several).
 */
export type ProviderRules = ProviderName | "strictest";

/** Every {@link ProviderRules}, for validating options. */
export const PROVIDER_RULE_NAMES: readonly ProviderRules[] = [
  "anthropic",
  "bedrock",
  "gemini",
  "mistral",
  "openai",
  "strictest",
];

/** The patterns PATTERNS marks as a rule of some providers only. */
export type ProviderPattern = {
  [K in PatternId]: "provider" extends (typeof PATTERNS)[K]["applies"][number] ? K : never;
}[PatternId];

/** The provider patterns each provider needs, as its API answers the LangChain client's requests. */
export const PROVIDER_RULES = Object.freeze({
  // Chat Completions and Responses take turns in any order, a request that ends on a reply, empty turns and a
  // SystemMessage anywhere.
  openai: [],
  // "first message must use the user role", "roles must alternate": as the emulator models it, strict where reports
  // disagree (the Messages API combines consecutive user turns, so a user turn may follow one). "all messages must
  // have non-empty content"; a SystemMessage not first is sent in place and only the newest models take it; Claude
  // 4.6 and newer take no prefill.
  anthropic: ["J", "K", "X", "Y", "Z"],
  // "First content should be with role 'user'", "multiturn requests alternate between user and model" (function
  // responses are turns of their own, so a user turn may follow them), "contents.parts must not be empty", "System
  // message should be the first one" (the client), "multiturn requests ends with a user role or a function
  // response", and Gemini 3's thought signatures on the current turn's calls.
  gemini: ["A", "J", "K", "T", "X", "Y", "Z"],
  // Converse: "A conversation must start with a user message", "must alternate between user and assistant roles"
  // (tool results are a user turn), blank text rejected (a tool result's too), an empty user turn refused by the
  // client, no prefill on Claude 4.6 and newer. Every SystemMessage is moved to `system`, wherever it is.
  bedrock: ["A", "C", "J", "K", "W", "X", "Z"],
  // "Unexpected role 'user' after role 'tool'", "Unexpected role 'system' after role 'assistant'", "Expected last
  // role User or Tool (or Assistant with prefix True)".
  mistral: ["C", "Y", "Z"],
} as const satisfies Record<ProviderName, readonly ProviderPattern[]>);

/** Which provider patterns a repair applies, as flags the engine reads on every boundary. @internal */
export type ProviderRuleSet = Readonly<Record<ProviderPattern, boolean>>;

const ALL_PROVIDER_PATTERNS = (Object.keys(PATTERNS) as PatternId[]).filter((code) =>
  (PATTERNS[code].applies as readonly string[]).includes("provider"),
) as ProviderPattern[];

const rulesOf = (codes: readonly ProviderPattern[]): ProviderRuleSet =>
  Object.freeze(
    Object.fromEntries(ALL_PROVIDER_PATTERNS.map((code) => [code, codes.includes(code)])),
  ) as ProviderRuleSet;

/** Every provider's rules: what a broken run's leftovers are closed under, whatever the provider. @internal */
export const EVERY_RULE: ProviderRuleSet = rulesOf(Object.values(PROVIDER_RULES).flat());

/** No provider's rule: what every provider accepts. @internal */
export const NO_RULE: ProviderRuleSet = rulesOf([]);

const RULE_SETS = new Map<ProviderRules, ProviderRuleSet>([
  ...(Object.keys(PROVIDER_RULES) as ProviderName[]).map((p) => [p, rulesOf(PROVIDER_RULES[p])] as const),
  ["strictest", EVERY_RULE],
]);

/** Claude models before 4.6, which still take an assistant prefill (by `baseModel` name). */
const TAKES_PREFILL = /^claude-(\d|instant)|^claude-(opus|sonnet|haiku)-4(-[0-5])?$/;

/**
 * The rules of `provider`; none when it is not given. Anthropic's and Bedrock's ban on a request ending on a reply
 * (Z) is their newest models': a `model` known to take a prefill keeps it.
 * @internal
 */
export function providerRulesOf(provider: ProviderRules | undefined, model?: string): ProviderRuleSet {
  if (provider === undefined) return NO_RULE;
  const rules = RULE_SETS.get(provider)!;
  const prefill = (provider === "anthropic" || provider === "bedrock") && model !== undefined;
  return prefill && TAKES_PREFILL.test(baseModel(model)) ? Object.freeze({ ...rules, Z: false }) : rules;
}
