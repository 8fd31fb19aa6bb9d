/** Which provider and model a LangChain chat model calls, as far as their rules go. */
import type { ProviderName } from "../repair/provider-rules.js";

/**
 * The provider of each LangChain chat model, by its `_llmType()`, or by `<type>:<platform>` where one type serves
 * several (`ChatVertexAI` and `ChatGoogle` are `"google"`, on Vertex AI `"gcp"`, on the Gemini API `"gai"`).
 */
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
  // ChatPerplexity (@langchain/perplexity, @langchain/community).
  perplexity: "perplexity",
};

/**
 * The provider of each `modelProvider` key of `initChatModel` (a model given by name: `"anthropic:claude-…"`).
 * Fireworks and Together serve OpenAI's Chat Completions, and take what OpenAI takes.
 */
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

/** The clients an app points at another provider's OpenAI-compatible server by its base URL (`ChatOpenAI`). */
const POINTED_BY_BASE_URL: ReadonlySet<ProviderName | undefined> = new Set(["openai"]);

/** The provider of an OpenAI-compatible server `ChatOpenAI` is pointed at, by the host of its base URL. */
const BY_BASE_URL_HOST: Readonly<Record<string, ProviderName>> = {
  "api.groq.com": "groq",
  "api.deepseek.com": "deepseek",
  "api.x.ai": "xai",
  "api.cerebras.ai": "cerebras",
  "openrouter.ai": "openrouter",
  "api.perplexity.ai": "perplexity",
};
/** Ollama's OpenAI-compatible endpoint, on its default port wherever it runs. */
const OLLAMA_PORT = "11434";

const lookup = (table: Readonly<Record<string, ProviderName>>, key: unknown) =>
  typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;

/** The provider of the server at `baseURL` (a ChatOpenAI's `configuration.baseURL`), when it is a known one. */
function providerOfBaseUrl(baseURL: unknown): ProviderName | undefined {
  if (typeof baseURL !== "string" || !URL.canParse(baseURL)) return undefined;
  const { hostname, port } = new URL(baseURL);
  return lookup(BY_BASE_URL_HOST, hostname) ?? (port === OLLAMA_PORT ? "ollama" : undefined);
}

interface ModelLike {
  _llmType?: () => unknown;
  /** The model's name, as the provider clients keep it (`model`; older clients `modelName`). */
  model?: unknown;
  modelName?: unknown;
  /** ChatOpenAI's zero data retention: its responses are made with `store: false`. */
  zdrEnabled?: unknown;
  /** ChatOpenAI's client options: the server it calls (`configuration.baseURL`). */
  clientConfig?: { baseURL?: unknown };
  /** The Google clients' platform: `"gcp"` (Vertex AI) or `"gai"` (the Gemini API). */
  platform?: unknown;
  /** A model bound with tools or options (`RunnableBinding`). */
  bound?: unknown;
  /** A model with fallbacks (`RunnableWithFallbacks`): the one called first. */
  runnable?: unknown;
  /** `initChatModel`'s `ConfigurableModel`: its settings, and the models it built. */
  _defaultConfig?: { modelProvider?: unknown; model?: unknown };
  _modelInstanceCache?: Map<unknown, unknown>;
}

/**
 * The first thing `read` finds in `model` or in what it wraps: the models `initChatModel` built, then a model bound
 * with tools or options, or the one a model with fallbacks calls first.
 */
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

/**
 * The provider `model` calls: a chat model of a known provider (a `ChatOpenAI` by the server it is pointed at), such
 * a model bound with tools or given fallbacks, or one `initChatModel` builds (`createAgent({ model: "groq:…" })`);
 * undefined when unknown.
 * @internal
 */
export const providerOfModel = (model: unknown): ProviderName | undefined =>
  findInModel(model, (chat) => {
    const named = lookup(BY_MODEL_PROVIDER, chat._defaultConfig?.modelProvider);
    if (named !== undefined) return named;
    const type = typeof chat._llmType === "function" ? chat._llmType() : undefined;
    const known = lookup(BY_LLM_TYPE, `${String(type)}:${String(chat.platform)}`) ?? lookup(BY_LLM_TYPE, type);
    return (POINTED_BY_BASE_URL.has(known) ? providerOfBaseUrl(chat.clientConfig?.baseURL) : undefined) ?? known;
  });

/** The name of the model `model` calls (`"claude-sonnet-4-5"`); undefined when unknown. @internal */
export const modelNameOf = (model: unknown): string | undefined =>
  findInModel(model, (chat) =>
    [chat._defaultConfig?.model, chat.model, chat.modelName].find((name) => typeof name === "string" && name !== ""),
  ) as string | undefined;

/** `false` when `model` has the Responses API keep nothing (ChatOpenAI's `zdrEnabled`), else undefined. @internal */
export const storeOfModel = (model: unknown): false | undefined =>
  findInModel(model, (chat) => (chat.zdrEnabled === true ? false : undefined));
