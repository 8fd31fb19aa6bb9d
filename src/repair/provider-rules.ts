/**
 * The rules of one provider only: which role-order patterns (`applies: ["role-order"]` in PATTERNS) each
 * provider's API needs repaired, as its LangChain client sends a history. Everything else the sanitizer repairs
 * is rejected by every provider.
 */
import { type PATTERNS, type PatternId } from "./patterns.js";

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

/** The patterns PATTERNS marks as role order. */
export type RoleOrderPattern = {
  [K in PatternId]: "role-order" extends (typeof PATTERNS)[K]["applies"][number] ? K : never;
}[PatternId];

/** The role-order patterns each provider needs. */
export const PROVIDER_RULES = Object.freeze({
  // Chat Completions and Responses take user and assistant turns in any order, tool results before a user turn too.
  openai: [],
  // "first message must use the user role", "roles must alternate": as the emulator models it, strict where reports
  // disagree. The Messages API combines consecutive user turns (its docs), so a user turn may follow one.
  anthropic: ["J", "K"],
  // "First content should be with role 'user'", "multiturn requests alternate between user and model": function
  // responses are turns of their own, so a user turn may follow them.
  gemini: ["A", "J", "K"],
  // Converse: "A conversation must start with a user message", "A conversation must alternate between user and
  // assistant roles"; tool results are sent as a user turn.
  bedrock: ["A", "C", "J", "K"],
  // "Unexpected role 'user' after role 'tool'".
  mistral: ["C"],
} as const satisfies Record<ProviderName, readonly RoleOrderPattern[]>);

/** Which role-order patterns a repair applies, as flags the engine reads on every boundary. @internal */
export type RoleOrder = Readonly<Record<RoleOrderPattern, boolean>>;

const orderOf = (codes: readonly RoleOrderPattern[]): RoleOrder =>
  Object.freeze({ A: codes.includes("A"), C: codes.includes("C"), J: codes.includes("J"), K: codes.includes("K") });

/** Every role-order rule: what a broken run's leftovers are closed under, whatever the provider. @internal */
export const EVERY_RULE: RoleOrder = orderOf(Object.values(PROVIDER_RULES).flat());

/** No role-order rule: what every provider accepts. @internal */
export const NO_RULE: RoleOrder = orderOf([]);

const ORDERS = new Map<ProviderRules, RoleOrder>([
  ...(Object.keys(PROVIDER_RULES) as ProviderName[]).map((p) => [p, orderOf(PROVIDER_RULES[p])] as const),
  ["strictest", EVERY_RULE],
]);

/** The role-order rules of `provider`; none when it is not given. @internal */
export const roleOrderOf = (provider: ProviderRules | undefined): RoleOrder =>
  provider === undefined ? NO_RULE : ORDERS.get(provider)!;
