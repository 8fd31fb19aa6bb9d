/**
 * The rules of one provider only: which provider patterns (`applies: ["provider"]` in PATTERNS) each provider's API
 * needs repaired, as its LangChain client sends a history. Everything else the sanitizer repairs is rejected by
 * every provider (or by the model named, for `applies: ["model"]`).
 */
import { baseModel } from "../messages/anthropic-blocks.js";
import { PATTERNS, type PatternId } from "./patterns.js";

/** A provider whose own rules the sanitizer knows. */
export type ProviderName =
  | "anthropic"
  | "bedrock"
  | "cerebras"
  | "cohere"
  | "deepseek"
  | "gemini"
  | "groq"
  | "mistral"
  | "ollama"
  | "openai"
  | "openrouter"
  | "vertex"
  | "xai";

/**
 * Whose rules a repair applies beyond what every provider rejects: one provider's, or `"strictest"`, every
 * provider's at once (an app that switches models, or sends one history to several).
 */
export type ProviderRules = ProviderName | "strictest";

/** Every {@link ProviderRules}, for validating options. */
export const PROVIDER_RULE_NAMES: readonly ProviderRules[] = [
  "anthropic",
  "bedrock",
  "cerebras",
  "cohere",
  "deepseek",
  "gemini",
  "groq",
  "mistral",
  "ollama",
  "openai",
  "openrouter",
  "vertex",
  "xai",
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
  // client, no prefill on Claude 4.6 and newer. Every SystemMessage is moved to `system`, wherever it is. These are
  // the Converse API's checks, made for every model (Command R+ on Converse: "A conversation must start with a user
  // message", langchain-aws#238); Nova, Llama and Mistral models keep Z, strict where reports disagree (Nova takes a
  // prefill, Mistral's API refuses one), and only Claude's thinking rule (R) is Claude's.
  bedrock: ["A", "C", "J", "K", "W", "X", "Z"],
  // "Unexpected role 'user' after role 'tool'", "Unexpected role 'system' after role 'assistant'", "Expected last
  // role User or Tool (or Assistant with prefix True)".
  mistral: ["C", "Y", "Z"],
  // Chat Completions as OpenAI takes them: any role order (NVIDIA/GenerativeAIExamples#113 cites Groq's playground
  // for it). Its 400s name fields ("'messages.1' : for 'role:assistant' the following must be satisfied[…]"): an
  // empty reply (H) and unknown message properties, which ChatGroq does not send.
  groq: [],
  // `/api/chat` renders any order through the model's template; it validates no role order.
  ollama: [],
  // Chat v1, which ChatCohere calls (the last message as `message`, the rest as `chat_history`): "cannot specify
  // message if the last entry in chat history contains tool results" (a user turn right after tool results,
  // langchain-oracle#9), "message must be at least 1 token long or tool results must be specified" (an empty user
  // turn, Risuai#504), and a request ending on the assistant, which reports disagree on (v2 takes it, with no
  // prefill: SillyTavern#3692), so strict. Consecutive turns of one role and a system message anywhere are taken.
  cohere: ["C", "X", "Z"],
  // "deepseek-reasoner does not support successive user or assistant messages (messages[1] and messages[2] in your
  // input)" (DeepSeek-R1#21), "The last message of deepseek-reasoner must be a user message, or an assistant message
  // with prefix mode on" (litellm#8090): the reasoner's and thinking mode's, strict for every DeepSeek model.
  deepseek: ["A", "K", "Z"],
  // Chat Completions as OpenAI takes them; no role-order error is reported for Grok.
  xai: [],
  // Chat Completions as OpenAI takes them; its 400s are on unknown message properties ("'messages.2.assistant.
  // reasoning_content' is unsupported", code wrong_api_format), which ChatCerebras does not send.
  cerebras: [],
  // An OpenAI-compatible router: each model's own provider judges the request (MODEL_FAMILIES), any order otherwise.
  openrouter: [],
  // Gemini on Vertex AI: the Gemini API's contents rules (Claude on Vertex: MODEL_FAMILIES).
  vertex: ["A", "J", "K", "T", "X", "Y", "Z"],
} as const satisfies Record<ProviderName, readonly ProviderPattern[]>);

/** A Gemini model before Gemini 3, which checks no thought signature (pattern T is Gemini 3's). */
const BEFORE_GEMINI_3 = /(^|\/)gemini-(1|2)[.-]/;

/**
 * Where a provider's models differ: by model name (lower case), the provider patterns of the API or model that
 * judges the request in place of the provider's row. A model no entry names, or no model, gets the row.
 */
export const MODEL_FAMILIES = Object.freeze({
  // Thought signatures are Gemini 3's ("Function call is missing a thought_signature"); earlier models send none.
  gemini: [[BEFORE_GEMINI_3, ["A", "J", "K", "X", "Y", "Z"]]],
  // Claude on Vertex AI is Anthropic's Messages API behind Vertex's endpoint (`…/publishers/anthropic/models/…`).
  vertex: [
    [/^claude/, PROVIDER_RULES.anthropic],
    [BEFORE_GEMINI_3, ["A", "J", "K", "X", "Y", "Z"]],
  ],
  // OpenRouter hands each request to the model's provider, whose errors it returns: `anthropic/…`, `google/…`
  // (Gemini's order; its signatures travel in OpenRouter's own `reasoning_details`, not Gemini's field, so no T),
  // `mistralai/…`, `deepseek/…`.
  openrouter: [
    [/^anthropic\//, PROVIDER_RULES.anthropic],
    [/^google\//, ["A", "J", "K", "X", "Y", "Z"]],
    [/^mistralai\//, PROVIDER_RULES.mistral],
    [/^deepseek\//, PROVIDER_RULES.deepseek],
  ],
} as const satisfies Partial<Record<ProviderName, readonly (readonly [RegExp, readonly ProviderPattern[]])[]>>);

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

/** The providers whose every model is Claude; through any other, a Claude model is known by its name. */
const SERVES_ONLY_CLAUDE: ReadonlySet<ProviderRules> = new Set(["anthropic"]);
/** The providers that serve Claude models, whose older ones take a prefill (Z) there as at Anthropic. */
const SERVES_CLAUDE: ReadonlySet<ProviderRules> = new Set(["anthropic", "bedrock", "vertex"]);
/** A Claude model's `baseModel` name, bare or as OpenRouter names it. */
const CLAUDE = /^(anthropic\/)?claude/;

/**
 * Whether the history goes to a Claude model: Anthropic rejects every thinking block without a signature, whoever
 * made it (a Gemini thought carried over on a model switch, a block an app built), so pattern R drops it.
 * @internal
 */
export function goesToClaude(provider: ProviderRules | undefined, model: string | undefined): boolean {
  return (
    (provider !== undefined && SERVES_ONLY_CLAUDE.has(provider)) ||
    (model !== undefined && CLAUDE.test(baseModel(model)))
  );
}

/** Claude models before 4.6, which still take an assistant prefill (by `baseModel` name). */
const TAKES_PREFILL = /^claude-(\d|instant)|^claude-(opus|sonnet|haiku)-4(-[0-5])?$/;

/** MODEL_FAMILIES as rule sets, built once: the rules are looked up on every read. */
const FAMILY_RULES = new Map<ProviderRules, (readonly [RegExp, ProviderRuleSet])[]>(
  Object.entries(MODEL_FAMILIES).map(([provider, families]) => [
    provider as ProviderName,
    families.map(([name, codes]) => [name, rulesOf(codes)] as const),
  ]),
);

/**
 * The rules of `provider`; none when it is not given. A `model` of another maker the provider serves gets that
 * maker's (see MODEL_FAMILIES). The ban on a request ending on a reply (Z) is the newest Claude models': a Claude
 * `model` known to take a prefill keeps it, at every provider that serves Claude.
 * @internal
 */
export function providerRulesOf(provider: ProviderRules | undefined, model?: string): ProviderRuleSet {
  if (provider === undefined) return NO_RULE;
  const name = model?.toLowerCase();
  const family = name === undefined ? undefined : FAMILY_RULES.get(provider)?.find(([family]) => family.test(name));
  const rules = family?.[1] ?? RULE_SETS.get(provider)!;
  const prefill = model !== undefined && SERVES_CLAUDE.has(provider) && TAKES_PREFILL.test(baseModel(model));
  return prefill ? Object.freeze({ ...rules, Z: false }) : rules;
}
