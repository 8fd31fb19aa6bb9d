/** Which provider and model a LangChain chat model calls, as far as their rules go. */
import type { ProviderName } from "../repair/provider-rules.js";

/** The provider of each LangChain chat model, by its `_llmType()`. */
const BY_LLM_TYPE: Readonly<Record<string, ProviderName>> = {
  anthropic: "anthropic",
  chat_bedrock_converse: "bedrock",
  googlegenerativeai: "gemini",
  vertexai: "gemini",
  mistral_ai: "mistral",
  openai: "openai",
  azure_openai: "openai",
};

/** The provider of each `modelProvider` key of `initChatModel` (a model given by name: `"anthropic:claude-…"`). */
const BY_MODEL_PROVIDER: Readonly<Record<string, ProviderName>> = {
  anthropic: "anthropic",
  bedrock: "bedrock",
  aws: "bedrock",
  google: "gemini",
  "google-genai": "gemini",
  "google-vertexai": "gemini",
  "google-vertexai-web": "gemini",
  mistral: "mistral",
  mistralai: "mistral",
  openai: "openai",
  azure_openai: "openai",
};

const lookup = (table: Readonly<Record<string, ProviderName>>, key: unknown) =>
  typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;

interface ModelLike {
  _llmType?: () => unknown;
  /** The model's name, as the provider clients keep it (`model`; older clients `modelName`). */
  model?: unknown;
  modelName?: unknown;
  /** ChatOpenAI's zero data retention: its responses are made with `store: false`. */
  zdrEnabled?: unknown;
  /** A model bound with tools or options (`RunnableBinding`). */
  bound?: unknown;
  /** A model with fallbacks (`RunnableWithFallbacks`): the one called first. */
  runnable?: unknown;
  /** `initChatModel`'s `ConfigurableModel`: its settings, and the models it built. */
  _defaultConfig?: { modelProvider?: unknown; model?: unknown };
  _modelInstanceCache?: Map<unknown, unknown>;
}

/**
 * The provider `model` calls: a chat model of a known provider, such a model bound with tools or given fallbacks,
 * or one `initChatModel` builds (`createAgent({ model: "anthropic:claude-…" })`); undefined when unknown.
 * @internal
 */
export function providerOfModel(model: unknown, depth = 0): ProviderName | undefined {
  const chat = model as ModelLike | null | undefined;
  if (typeof chat !== "object" || chat === null || depth > 8) return undefined;
  const named = lookup(BY_MODEL_PROVIDER, chat._defaultConfig?.modelProvider);
  if (named !== undefined) return named;
  for (const built of chat._modelInstanceCache?.values() ?? []) {
    const provider = providerOfModel(built, depth + 1);
    if (provider !== undefined) return provider;
  }
  const known = typeof chat._llmType === "function" ? lookup(BY_LLM_TYPE, chat._llmType()) : undefined;
  return known ?? providerOfModel(chat.bound ?? chat.runnable, depth + 1);
}

/**
 * The name of the model `model` calls (`"claude-sonnet-4-5"`), read as {@link providerOfModel} reads the provider;
 * undefined when unknown. A model with fallbacks names the one called first.
 * @internal
 */
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

/**
 * `false` when `model` has the Responses API keep nothing (ChatOpenAI's `zdrEnabled`), else undefined: each reply
 * records its own. Read as {@link providerOfModel} reads the provider.
 * @internal
 */
export function storeOfModel(model: unknown, depth = 0): false | undefined {
  const chat = model as ModelLike | null | undefined;
  if (typeof chat !== "object" || chat === null || depth > 8) return undefined;
  if (chat.zdrEnabled === true) return false;
  for (const built of chat._modelInstanceCache?.values() ?? [])
    if (storeOfModel(built, depth + 1) === false) return false;
  return storeOfModel(chat.bound ?? chat.runnable, depth + 1);
}
