// Which provider-scoped patterns each provider's API needs; docs/providers.md is generated from it.
import { baseModel } from "../../messages/anthropic-blocks.js";
import type { UNITS } from "../patterns/index.js";

type ProviderScoped = {
  [K in keyof typeof UNITS]: "provider" extends (typeof UNITS)[K]["applies"][number] ? K : never;
}[keyof typeof UNITS];

export type ProviderPattern = ProviderScoped;

/** Models a provider's rule does not hold for, by `baseModel` name. */
export interface ModelFamily {
  name: string;
  models: RegExp;
  lifts: readonly ProviderPattern[];
  source: string;
}

/** Claude before 4.6 still takes an assistant prefill: a request may end on a reply (`request-ends-on-reply`). */
const CLAUDE_TAKES_PREFILL: ModelFamily = {
  name: "Claude models before 4.6",
  models: /^claude-(\d|instant)|^claude-(opus|sonnet|haiku)-4(-[0-5])?$/,
  lifts: ["Z"],
  source: "Anthropic's migration guide: prefilling assistant messages is not supported on Claude 4.6 and newer",
};

/** Before Gemini 3 no thought signature is checked ("Function call is missing a thought_signature"). */
const GEMINI_BEFORE_3: ModelFamily = {
  name: "Gemini before 3",
  models: /(^|\/)gemini-(1|2)[.-]/,
  lifts: ["T"],
  source: "Gemini's thought signatures guide: signatures are Gemini 3's; earlier models send and check none",
};

/** Anthropic's Messages API behind Vertex, and ChatVertexAI sends a Claude request's SystemMessages in `system`. */
const CLAUDE_ON_VERTEX: ModelFamily = {
  name: "Claude on Vertex",
  models: /^claude/,
  lifts: ["A", "T", "Y"],
  source:
    "Vertex AI's Claude models are served by Anthropic's Messages API (`…/publishers/anthropic/models/…`), to which " +
    "ChatVertexAI sends every SystemMessage in `system`",
};

/**
 * OpenRouter returns the model provider's errors: each maker's models keep its rules (Gemini's without T: signatures
 * travel in `reasoning_details`); other models take any order.
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

export interface ProviderEntry {
  patterns: readonly ProviderPattern[];
  /** The provider's documented rules and error texts that need them. */
  source: string;
  /** Known from the `model` option. */
  families?: readonly ModelFamily[];
}

/** As each API answers its LangChain client's requests. */
export const PROVIDERS = Object.freeze({
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

/** A provider whose rules the sanitizer knows. */
export type ProviderName = keyof typeof PROVIDERS;

/** One provider's rules, or `"strictest"`: all of them (an app that switches models). */
export type ProviderChoice = ProviderName | "strictest";

/** @deprecated The same type under its old name: use {@link ProviderChoice}. */
export type ProviderRules = ProviderChoice;

/** @internal */
export const PROVIDER_NAMES: readonly ProviderChoice[] = [
  ...(Object.keys(PROVIDERS) as ProviderName[]).sort(),
  "strictest",
];

const BY_NAME: Readonly<Record<ProviderName, ProviderEntry>> = PROVIDERS;
const ENTRIES = new Map<ProviderChoice | undefined, readonly ProviderEntry[]>([
  ...(Object.keys(BY_NAME) as ProviderName[]).map((name) => [name, [BY_NAME[name]]] as const),
  ["strictest", Object.values(BY_NAME)],
]);

/** What any entry of `provider` needs and does not lift for the model's family. @internal */
export function providerPatterns(provider: ProviderChoice | undefined, model: string | undefined): Set<string> {
  const base = model === undefined ? undefined : baseModel(model);
  const codes = new Set<string>();
  for (const entry of ENTRIES.get(provider) ?? []) {
    const families = base === undefined ? [] : (entry.families ?? []).filter((family) => family.models.test(base));
    const lifted = new Set<string>(families.flatMap((family) => family.lifts));
    for (const code of entry.patterns) if (!lifted.has(code)) codes.add(code);
  }
  return codes;
}

/** Through any other provider, a Claude model is known by its name. */
const SERVES_ONLY_CLAUDE: ReadonlySet<ProviderChoice> = new Set(["anthropic"]);
const CLAUDE = /^(anthropic\/)?claude/;

/** Anthropic rejects any thinking block without a signature, whoever made it (`unsigned-thinking-block`). @internal */
export function goesToClaude(provider: ProviderChoice | undefined, model: string | undefined): boolean {
  return (
    (provider !== undefined && SERVES_ONLY_CLAUDE.has(provider)) ||
    (model !== undefined && CLAUDE.test(baseModel(model)))
  );
}
