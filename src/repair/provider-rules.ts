/**
 * Whose rules a repair applies beyond what every provider rejects: the provider table (which `provider`-scoped
 * patterns each provider's API needs repaired, as its LangChain client sends a history), and the model families
 * that lift one of them. docs/providers.md is checked against it by a test.
 */
import { baseModel } from "../messages/anthropic-blocks.js";
import type { UNITS } from "./patterns/index.js";

type ProviderScoped = {
  [K in keyof typeof UNITS]: "provider" extends (typeof UNITS)[K]["applies"][number] ? K : never;
}[keyof typeof UNITS];

/** The patterns some providers need and others do not (`applies` has `"provider"`). */
export type ProviderPattern = ProviderScoped;

/** The models of a family that a provider's rule does not hold for, by `baseModel` name. @internal */
export interface ModelFamily {
  models: RegExp;
  /** The provider patterns these models do not need. */
  lifts: readonly ProviderPattern[];
  /** Where the family is documented. */
  source: string;
}

/** Claude models before 4.6, which still take an assistant prefill: a request may end on a reply (Z). */
const CLAUDE_TAKES_PREFILL: ModelFamily = {
  models: /^claude-(\d|instant)|^claude-(opus|sonnet|haiku)-4(-[0-5])?$/,
  lifts: ["Z"],
  source: "Anthropic's migration guide: prefilling assistant messages is not supported on Claude 4.6 and newer",
};

/** One provider's rules. @internal */
export interface ProviderEntry {
  /** The provider patterns it needs. */
  patterns: readonly ProviderPattern[];
  /** Model families (known from the `model` option) for which some of them are lifted. */
  families?: readonly ModelFamily[];
}

/** The provider patterns each provider needs, as its API answers the LangChain client's requests. */
export const PROVIDER_RULES = Object.freeze({
  // Chat Completions and Responses take turns in any order, a request that ends on a reply, empty turns and a
  // SystemMessage anywhere.
  openai: { patterns: [] },
  // "first message must use the user role", "roles must alternate": as the emulator models it, strict where reports
  // disagree (the Messages API combines consecutive user turns, so a user turn may follow one). "all messages must
  // have non-empty content"; a SystemMessage not first is sent in place and only the newest models take it; Claude
  // 4.6 and newer take no prefill.
  anthropic: { patterns: ["J", "K", "X", "Y", "Z"], families: [CLAUDE_TAKES_PREFILL] },
  // "First content should be with role 'user'", "multiturn requests alternate between user and model" (function
  // responses are turns of their own, so a user turn may follow them), "contents.parts must not be empty", "System
  // message should be the first one" (the client), "multiturn requests ends with a user role or a function
  // response", and Gemini 3's thought signatures on the current turn's calls.
  gemini: { patterns: ["A", "J", "K", "T", "X", "Y", "Z"] },
  // Converse: "A conversation must start with a user message", "must alternate between user and assistant roles"
  // (tool results are a user turn), blank text rejected (a tool result's too), an empty user turn refused by the
  // client, no prefill on Claude 4.6 and newer. Every SystemMessage is moved to `system`, wherever it is.
  bedrock: { patterns: ["A", "C", "J", "K", "W", "X", "Z"], families: [CLAUDE_TAKES_PREFILL] },
  // "Unexpected role 'user' after role 'tool'", "Unexpected role 'system' after role 'assistant'", "Expected last
  // role User or Tool (or Assistant with prefix True)".
  mistral: { patterns: ["C", "Y", "Z"] },
} as const satisfies Record<string, ProviderEntry>);

/** A provider whose own rules the sanitizer knows. */
export type ProviderName = keyof typeof PROVIDER_RULES;

/**
 * Whose rules a repair applies beyond what every provider rejects: one provider's, or `"strictest"`, every
 * provider's at once (an app that switches models, or sends one history to several).
 */
export type ProviderRules = ProviderName | "strictest";

/** Every {@link ProviderRules} value, for validating options and the CLI's help. @internal */
export const PROVIDER_RULE_NAMES: readonly ProviderRules[] = [
  ...(Object.keys(PROVIDER_RULES) as ProviderName[]).sort(),
  "strictest",
];

/** The entries each {@link ProviderRules} value stands for: one provider's, or every provider's. */
const BY_NAME: Readonly<Record<ProviderName, ProviderEntry>> = PROVIDER_RULES;
const ENTRIES = new Map<ProviderRules | undefined, readonly ProviderEntry[]>([
  ...(Object.keys(BY_NAME) as ProviderName[]).map((name) => [name, [BY_NAME[name]]] as const),
  ["strictest", Object.values(BY_NAME)],
]);

/**
 * The provider patterns that apply under `provider` for `model`: what any of its entries needs and does not lift
 * for a family of the model (none without a provider).
 * @internal
 */
export function providerPatterns(provider: ProviderRules | undefined, model: string | undefined): Set<string> {
  const base = model === undefined ? undefined : baseModel(model);
  const codes = new Set<string>();
  for (const entry of ENTRIES.get(provider) ?? []) {
    const families = base === undefined ? [] : (entry.families ?? []).filter((family) => family.models.test(base));
    const lifted = new Set<string>(families.flatMap((family) => family.lifts));
    for (const code of entry.patterns) if (!lifted.has(code)) codes.add(code);
  }
  return codes;
}
