// Which provider made a stored reply, as its metadata records it: the table of the `model_provider` values each
// LangChain client writes, and, for a reply that records none, the model names that tell.

type Loose = Record<string, unknown>;

/**
 * What a reply carries that only its maker's API reads back, and the clients that make such replies: callers ask
 * by what they read, so no provider name is compared outside this table.
 */
const ORIGINS = Object.freeze({
  // ChatAnthropic, and a reply that names a Claude model (a client that records no provider).
  "signed-thinking": { modelProviders: ["anthropic"], models: /^claude/ },
  // ChatOpenAI (Chat Completions and Responses).
  "responses-items": { modelProviders: ["openai"], models: undefined },
  // ChatGoogleGenerativeAI and ChatVertexAI.
  "thought-signatures": { modelProviders: ["google-genai", "google-vertexai", "google"], models: undefined },
} satisfies Record<string, { modelProviders: readonly string[]; models: RegExp | undefined }>);

export type ReplyOrigin = keyof typeof ORIGINS;

/** The model that made the reply, as its metadata records it (`model`, else `model_name`). */
export function modelOfReply(message: unknown): string | undefined {
  const m = message as Loose;
  const metadata = m.response_metadata as Loose | undefined;
  const model = metadata?.model ?? metadata?.model_name ?? (m.additional_kwargs as Loose | undefined)?.model;
  return typeof model === "string" && model !== "" ? model : undefined;
}

/** Whether a client that makes `origin` replies made this one: its `model_provider`, else its model's name. */
export function madeBy(message: unknown, origin: ReplyOrigin): boolean {
  const provider = ((message as Loose).response_metadata as Loose | undefined)?.model_provider;
  const { modelProviders, models } = ORIGINS[origin];
  if (provider !== undefined) return (modelProviders as readonly unknown[]).includes(provider);
  return models !== undefined && models.test(modelOfReply(message) ?? "");
}
