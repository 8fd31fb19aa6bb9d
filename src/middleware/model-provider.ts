import type { ProviderName } from "../repair/provider-rules.js";

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

/** Through bindings, fallbacks and `initChatModel`; a `ChatOpenAI` by its base URL. @internal */
export function providerOfModel(model: unknown, depth = 0): ProviderName | undefined {
  const chat = model as ModelLike | null | undefined;
  if (typeof chat !== "object" || chat === null || depth > 8) return undefined;
  const named = lookup(BY_MODEL_PROVIDER, chat._defaultConfig?.modelProvider);
  if (named !== undefined) return named;
  for (const built of chat._modelInstanceCache?.values() ?? []) {
    const provider = providerOfModel(built, depth + 1);
    if (provider !== undefined) return provider;
  }
  const type = typeof chat._llmType === "function" ? chat._llmType() : undefined;
  const known = lookup(BY_LLM_TYPE, `${String(type)}:${String(chat.platform)}`) ?? lookup(BY_LLM_TYPE, type);
  const server = POINTED_BY_BASE_URL.has(known) ? providerOfBaseUrl(chat.clientConfig?.baseURL) : undefined;
  return server ?? known ?? providerOfModel(chat.bound ?? chat.runnable, depth + 1);
}

/** Read as {@link providerOfModel} reads the provider. @internal */
export function modelNameOf(model: unknown, depth = 0): string | undefined {
  const chat = model as ModelLike | null | undefined;
  if (typeof chat !== "object" || chat === null || depth > 8) return undefined;
  for (const name of [chat._defaultConfig?.model, chat.model, chat.modelName]) {
    if (typeof name === "string" && name !== "") return name;
  }
  for (const built of chat._modelInstanceCache?.values() ?? []) {
    const name = modelNameOf(built, depth + 1);
    if (name !== undefined) return name;
  }
  return modelNameOf(chat.bound ?? chat.runnable, depth + 1);
}

/** `false` for ChatOpenAI's `zdrEnabled`, else undefined: each reply records its own. @internal */
export function storeOfModel(model: unknown, depth = 0): false | undefined {
  const chat = model as ModelLike | null | undefined;
  if (typeof chat !== "object" || chat === null || depth > 8) return undefined;
  if (chat.zdrEnabled === true) return false;
  for (const built of chat._modelInstanceCache?.values() ?? [])
    if (storeOfModel(built, depth + 1) === false) return false;
  return storeOfModel(chat.bound ?? chat.runnable, depth + 1);
}
