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

/** The models of a family that a provider's rule does not hold for, by `baseModel` name. */
export interface ModelFamily {
  /** The family, as the docs name it. */
  name: string;
  models: RegExp;
  /** The provider patterns these models do not need. */
  lifts: readonly ProviderPattern[];
  /** Where the family is documented. */
  source: string;
}

/** Claude models before 4.6, which still take an assistant prefill: a request may end on a reply (Z). */
const CLAUDE_TAKES_PREFILL: ModelFamily = {
  name: "Claude models before 4.6",
  models: /^claude-(\d|instant)|^claude-(opus|sonnet|haiku)-4(-[0-5])?$/,
  lifts: ["Z"],
  source: "Anthropic's migration guide: prefilling assistant messages is not supported on Claude 4.6 and newer",
};

/** Gemini models before Gemini 3, which check no thought signature ("Function call is missing a thought_signature"). */
const GEMINI_BEFORE_3: ModelFamily = {
  name: "Gemini before 3",
  models: /(^|\/)gemini-(1|2)[.-]/,
  lifts: ["T"],
  source: "Gemini's thought signatures guide: signatures are Gemini 3's; earlier models send and check none",
};

/**
 * Claude on Vertex AI: Anthropic's Messages API behind Vertex's endpoint, so Anthropic's rules, not Gemini's; and
 * ChatVertexAI sends every SystemMessage of a Claude request in `system`, so none is mid-history.
 */
const CLAUDE_ON_VERTEX: ModelFamily = {
  name: "Claude on Vertex",
  models: /^claude/,
  lifts: ["A", "T", "Y"],
  source:
    "Vertex AI's Claude models are served by Anthropic's Messages API (`…/publishers/anthropic/models/…`), to which " +
    "ChatVertexAI sends every SystemMessage in `system`",
};

/**
 * OpenRouter hands each request to the model's provider, whose errors it returns: each maker's models keep that
 * maker's rules of the row's union (Gemini's order without T: its signatures travel in OpenRouter's own
 * `reasoning_details`), and any other model (Llama, Qwen, …) takes any order.
 */
const OPENROUTER_MAKERS: readonly ModelFamily[] = [
  { name: "`anthropic/…`", models: /^anthropic\//, lifts: ["A", "C"], source: "Anthropic's rules" },
  { name: "`google/…`", models: /^google\//, lifts: ["C"], source: "Gemini's order" },
  { name: "`mistralai/…`", models: /^mistralai\//, lifts: ["A", "J", "K", "X"], source: "Mistral's rules" },
  { name: "`deepseek/…`", models: /^deepseek\//, lifts: ["C", "J", "X", "Y"], source: "DeepSeek's rules" },
  {
    name: "any other maker's model",
    models: /^(?!(anthropic|google|mistralai|deepseek)\/)/,
    lifts: ["A", "C", "J", "K", "X", "Y", "Z"],
    source: "what OpenAI takes",
  },
];

/** One provider's rules. */
export interface ProviderEntry {
  /** The provider patterns it needs. */
  patterns: readonly ProviderPattern[];
  /** The provider's documented rules and error texts that need them. */
  source: string;
  /** Model families (known from the `model` option) for which some of them are lifted. */
  families?: readonly ModelFamily[];
}

/** The provider patterns each provider needs, as its API answers the LangChain client's requests. */
export const PROVIDER_RULES = Object.freeze({
  openai: {
    patterns: [],
    source:
      "Chat Completions and Responses take turns in any order, a request that ends on a reply, empty turns and a " +
      "SystemMessage anywhere",
  },
  anthropic: {
    patterns: ["J", "K", "X", "Y", "Z"],
    families: [CLAUDE_TAKES_PREFILL],
    source:
      '"first message must use the user role", "roles must alternate" (strict where reports disagree: the Messages ' +
      'API combines consecutive user turns), "all messages must have non-empty content"; a SystemMessage not first ' +
      "is sent in place and only the newest models take it; Claude 4.6 and newer take no prefill",
  },
  gemini: {
    patterns: ["A", "J", "K", "T", "X", "Y", "Z"],
    families: [GEMINI_BEFORE_3],
    source:
      '"First content should be with role \'user\'", "multiturn requests alternate between user and model" (function ' +
      'responses are turns of their own), "contents.parts must not be empty", "System message should be the first ' +
      'one" (the client), "multiturn requests ends with a user role or a function response", and Gemini 3\'s thought ' +
      "signatures on the current turn's calls",
  },
  bedrock: {
    patterns: ["A", "C", "J", "K", "W", "X", "Z"],
    families: [CLAUDE_TAKES_PREFILL],
    source:
      'Converse: "A conversation must start with a user message", "must alternate between user and assistant roles" ' +
      "(tool results are a user turn), blank text rejected (a tool result's too), an empty user turn refused by the " +
      "client, no prefill on Claude 4.6 and newer; every SystemMessage is moved to `system`, wherever it is. These " +
      "are the Converse API's checks, made for every model (Command R+ on Converse: \"A conversation must start with a " +
      'user message", langchain-aws#238); Nova, Llama and Mistral models keep Z, strict where reports disagree (Nova ' +
      "takes a prefill, Mistral's API refuses one), and only Claude's thinking rule (R) is Claude's",
  },
  mistral: {
    patterns: ["C", "Y", "Z"],
    source:
      "\"Unexpected role 'user' after role 'tool'\", \"Unexpected role 'system' after role 'assistant'\", \"Expected last " +
      'role User or Tool (or Assistant with prefix True)"',
  },
  groq: {
    patterns: [],
    source:
      "Chat Completions as OpenAI takes them: any role order (NVIDIA/GenerativeAIExamples#113 cites Groq's playground " +
      "for it). Its 400s name fields (\"'messages.1' : for 'role:assistant' the following must be satisfied[…]\"): an " +
      "empty reply (H) and unknown message properties, which ChatGroq does not send",
  },
  ollama: {
    patterns: [],
    source: "`/api/chat` renders any order through the model's template; it validates no role order",
  },
  cohere: {
    patterns: ["C", "X", "Z"],
    source:
      'Chat v1, which ChatCohere calls (the last message as `message`, the rest as `chat_history`): "cannot specify ' +
      'message if the last entry in chat history contains tool results" (a user turn right after tool results, ' +
      'langchain-oracle#9), "message must be at least 1 token long or tool results must be specified" (an empty user ' +
      "turn, Risuai#504), and a request ending on the assistant, which reports disagree on (v2 takes it, with no " +
      "prefill: SillyTavern#3692), so strict. Consecutive turns of one role and a system message anywhere are taken",
  },
  deepseek: {
    patterns: ["A", "K", "Z"],
    source:
      '"deepseek-reasoner does not support successive user or assistant messages (messages[1] and messages[2] in your ' +
      'input)" (DeepSeek-R1#21), "The last message of deepseek-reasoner must be a user message, or an assistant ' +
      "message with prefix mode on\" (litellm#8090): the reasoner's and thinking mode's, strict for every DeepSeek model",
  },
  xai: { patterns: [], source: "Chat Completions as OpenAI takes them; no role-order error is reported for Grok" },
  cerebras: {
    patterns: [],
    source:
      "Chat Completions as OpenAI takes them; its 400s are on unknown message properties (\"'messages.2.assistant." +
      "reasoning_content' is unsupported\", code wrong_api_format), which ChatCerebras does not send",
  },
  openrouter: {
    patterns: ["A", "C", "J", "K", "X", "Y", "Z"],
    families: OPENROUTER_MAKERS,
    source:
      "an OpenAI-compatible router: each model's own provider judges the request; without a model, every maker's rules",
  },
  perplexity: {
    patterns: ["A", "C", "J", "K", "Y", "Z"],
    source:
      "Sonar's Chat Completions: \"After the (optional) system message(s), user or tool message(s) should alternate " +
      'with assistant message(s)" (pluely#71; before tool messages, "…user and assistant roles should be alternating", ' +
      'perplexityai/api-discussion#265), a system message only first (edenai-apis#144), "Last message must have role ' +
      '`user`" (litellm#3918); strict where the text leaves it open: a user turn right after tool results is refused',
  },
  vertex: {
    patterns: ["A", "J", "K", "T", "X", "Y", "Z"],
    families: [GEMINI_BEFORE_3, CLAUDE_ON_VERTEX, CLAUDE_TAKES_PREFILL],
    source: "Gemini on Vertex AI: the Gemini API's contents rules; Claude on Vertex: Anthropic's",
  },
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

/** The providers whose every model is Claude; through any other, a Claude model is known by its name. */
const SERVES_ONLY_CLAUDE: ReadonlySet<ProviderRules> = new Set(["anthropic"]);
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
