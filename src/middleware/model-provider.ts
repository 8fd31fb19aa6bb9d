import type { ProviderName } from "../repair/rules/provider-patterns.js";

/** By `_llmType()`, or `<type>:<platform>` where one type serves several (`"google:gcp"`, `"google:gai"`). */
const BY_LLM_TYPE: Readonly<Record<string, ProviderName>> = {
  anthropic: "anthropic",
  chat_bedrock_converse: "bedrock",
  googlegenerativeai: "gemini",
  "google:gcp": "vertex",
  "google:gai": "gemini",
  vertexai: "vertex",
  mistral_ai: "mistral",
  openai: "openai",
  azure_openai: "openai",
  groq: "groq",
  ollama: "ollama",
  cohere: "cohere",
  deepseek: "deepseek",
  xai: "xai",
  cerebras: "cerebras",
  perplexity: "perplexity",
};

/** `initChatModel`'s `modelProvider` keys; Fireworks and Together serve OpenAI's Chat Completions. */
const BY_MODEL_PROVIDER: Readonly<Record<string, ProviderName>> = {
  anthropic: "anthropic",
  bedrock: "bedrock",
  aws: "bedrock",
  google: "gemini",
  "google-genai": "gemini",
  "google-vertexai": "vertex",
  "google-vertexai-web": "vertex",
  mistral: "mistral",
  mistralai: "mistral",
  openai: "openai",
  azure_openai: "openai",
  groq: "groq",
  ollama: "ollama",
  cohere: "cohere",
  deepseek: "deepseek",
  xai: "xai",
  cerebras: "cerebras",
  fireworks: "openai",
  together: "openai",
  perplexity: "perplexity",
};

/** Clients an app points at another provider's OpenAI-compatible server by base URL. */
const POINTED_BY_BASE_URL: ReadonlySet<ProviderName | undefined> = new Set(["openai"]);

const BY_BASE_URL_HOST: Readonly<Record<string, ProviderName>> = {
  "api.groq.com": "groq",
  "api.deepseek.com": "deepseek",
  "api.x.ai": "xai",
  "api.cerebras.ai": "cerebras",
  "openrouter.ai": "openrouter",
  "api.perplexity.ai": "perplexity",
};
/** Ollama's default port, wherever it runs. */
const OLLAMA_PORT = "11434";

const lookup = (table: Readonly<Record<string, ProviderName>>, key: unknown) =>
  typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;

function providerOfBaseUrl(baseURL: unknown): ProviderName | undefined {
  if (typeof baseURL !== "string" || !URL.canParse(baseURL)) return undefined;
  const { hostname, port } = new URL(baseURL);
  return lookup(BY_BASE_URL_HOST, hostname) ?? (port === OLLAMA_PORT ? "ollama" : undefined);
}

interface ModelLike {
  _llmType?: () => unknown;
  /** Older clients call it `modelName`. */
  model?: unknown;
  modelName?: unknown;
  /** ChatOpenAI's zero data retention: `store: false`. */
  zdrEnabled?: unknown;
  clientConfig?: { baseURL?: unknown };
  /** `"gcp"` (Vertex AI) or `"gai"` (the Gemini API). */
  platform?: unknown;
  /** `RunnableBinding`. */
  bound?: unknown;
  /** `RunnableWithFallbacks`: the one called first. */
  runnable?: unknown;
  /** `initChatModel`'s `ConfigurableModel`. */
  _defaultConfig?: { modelProvider?: unknown; model?: unknown };
  _modelInstanceCache?: Map<unknown, unknown>;
}

/** The first thing `read` finds in `model`, the models `initChatModel` built, or what a binding or fallback wraps. */
function findInModel<T>(model: unknown, read: (chat: ModelLike) => T | undefined, depth = 0): T | undefined {
  const chat = model as ModelLike | null | undefined;
  if (typeof chat !== "object" || chat === null || depth > 8) return undefined;
  const found = read(chat);
  if (found !== undefined) return found;
  for (const built of chat._modelInstanceCache?.values() ?? []) {
    const inner = findInModel(built, read, depth + 1);
    if (inner !== undefined) return inner;
  }
  return findInModel(chat.bound ?? chat.runnable, read, depth + 1);
}

/** Through bindings, fallbacks and `initChatModel`; a `ChatOpenAI` by its base URL. @internal */
export const providerOfModel = (model: unknown): ProviderName | undefined =>
  findInModel(model, (chat) => {
    const named = lookup(BY_MODEL_PROVIDER, chat._defaultConfig?.modelProvider);
    if (named !== undefined) return named;
    const type = typeof chat._llmType === "function" ? chat._llmType() : undefined;
    const known = lookup(BY_LLM_TYPE, `${String(type)}:${String(chat.platform)}`) ?? lookup(BY_LLM_TYPE, type);
    return (POINTED_BY_BASE_URL.has(known) ? providerOfBaseUrl(chat.clientConfig?.baseURL) : undefined) ?? known;
  });

/** The name of the model `model` calls (`"claude-sonnet-4-5"`). @internal */
export const modelNameOf = (model: unknown): string | undefined =>
  findInModel(model, (chat) =>
    [chat._defaultConfig?.model, chat.model, chat.modelName].find((name) => typeof name === "string" && name !== ""),
  ) as string | undefined;

/** `false` for ChatOpenAI's `zdrEnabled`, else undefined: each reply records its own. @internal */
export const storeOfModel = (model: unknown): false | undefined =>
  findInModel(model, (chat) => (chat.zdrEnabled === true ? false : undefined));
