/** Validation of options, with one wording everywhere, and the per-call policy override. */
import type { RunnableConfig } from "@langchain/core/runnables";
import { resolveMarkers, type MarkerOption, type MarkerTexts } from "./repair/markers.js";
import { PROVIDER_RULE_NAMES, type ProviderRules } from "./repair/provider-rules.js";
import { BRIDGE_ROLES, type BridgeRole } from "./repair/synthetic.js";

/** Throws a `TypeError` naming `name` unless `value` is one of `allowed`. */
export function assertOneOf<T>(name: string, value: unknown, allowed: readonly T[]): asserts value is T {
  if (!allowed.includes(value as T)) {
    throw new TypeError(
      `${name} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}.`,
    );
  }
}

/** Throws a `TypeError` unless `model` is a model's name, or not given. */
export function assertModelName(model: unknown): asserts model is string | undefined {
  if (model === undefined || (typeof model === "string" && model.trim() !== "")) return;
  throw new TypeError(
    `model must be the name of the model the history goes to ("claude-sonnet-4-5"), got ${JSON.stringify(model)}.`,
  );
}

/** `store` when it is a boolean; throws a `TypeError` otherwise. */
export function assertStore(store: unknown): boolean {
  if (typeof store === "boolean") return store;
  throw new TypeError(
    `store must be true or false (false for an app whose responses OpenAI keeps nothing of), got ${JSON.stringify(store)}.`,
  );
}

/** Throws a `TypeError` naming `name` unless `value` is a list of node names or `"*"`, as `compile()` takes them. */
export function assertBreakpointNodes(name: string, value: unknown): void {
  if (value === "*" || (Array.isArray(value) && value.every((node) => typeof node === "string" && node !== ""))) return;
  throw new TypeError(
    `${name} must be "*" or an array of node names, as compile({ ${name} }) takes them; got ${JSON.stringify(value)}.`,
  );
}

/** The options the checkpointer and the middleware share: what inserted messages look like, and a report hook. */
export interface SharedRepairOptions<Event> {
  /** Texts of inserted messages: `"en"`, `"ko"`, or custom texts (missing keys fall back to `"en"`). @default "en" */
  markers?: MarkerOption;
  /** Role of the marker between two HumanMessages. `"system"` breaks Anthropic and Gemini. @default "ai" */
  bridgeRole?: BridgeRole;
  /**
   * Called once per repaired channel of a read (the checkpointer) or per repaired request (the middleware),
   * with every repair made in `repairs`, for logs and metrics. It runs inside the call: keep it fast, and do
   * not throw.
   */
  onRepair?: (event: Event) => void;
  /**
   * Whose own rules to repair besides what every provider rejects and what a broken run left (role order, empty
   * turns, a SystemMessage mid-history, …): `"bedrock"`, `"gemini"`, `"vertex"`, `"anthropic"`, `"mistral"`,
   * `"deepseek"`, `"cohere"`, `"openai"`, `"groq"`, … (see `PROVIDER_RULES`; a `model` another maker made gets its
   * maker's, `MODEL_FAMILIES`), or `"strictest"` (all of them, for an app that switches models). See docs/providers.md.
   * @default none: only what every provider rejects, and what a broken run left
   */
  provider?: ProviderRules;
  /**
   * The model the history goes to (`"claude-sonnet-4-5"`): thinking blocks another model signed (a fallback, a
   * model switch) are dropped for it, as Anthropic rejects them; a Claude model before 4.6 takes a prefill. See
   * docs/repairs.md.
   * @default none: no thinking block is taken for another model's
   */
  model?: string;
  /**
   * `false` when the OpenAI Responses API keeps nothing of the app's responses (`store: false`, ChatOpenAI's
   * `zdrEnabled`): a stored reply's reasoning item kept only by its id is dropped, as the API cannot find it.
   * @default as each reply records it (a streamed one does)
   */
  store?: boolean;
}

/** {@link SharedRepairOptions} once validated: what to pass to `repairMessages`, and the hook. @internal */
export interface ResolvedRepairOptions<Event> {
  repair: {
    markers: Readonly<MarkerTexts>;
    bridgeRole?: BridgeRole;
    provider?: ProviderRules;
    model?: string;
    store?: boolean;
  };
  onRepair: ((event: Event) => void) | undefined;
}

/**
 * Validates the shared options when they are given (bad marker texts fail here, not on the first broken
 * history) and resolves them once. @internal
 */
export function resolveRepairOptions<Event>(options: SharedRepairOptions<Event>): ResolvedRepairOptions<Event> {
  if (options.onRepair !== undefined && typeof options.onRepair !== "function") {
    throw new TypeError("onRepair must be a function.");
  }
  if (options.bridgeRole !== undefined) assertOneOf("bridgeRole", options.bridgeRole, BRIDGE_ROLES);
  if (options.provider !== undefined) assertOneOf("provider", options.provider, PROVIDER_RULE_NAMES);
  assertModelName(options.model);
  const markers = resolveMarkers(options.markers);
  return {
    repair: {
      markers,
      ...(options.bridgeRole !== undefined ? { bridgeRole: options.bridgeRole } : {}),
      ...(options.provider !== undefined ? { provider: options.provider } : {}),
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.store !== undefined ? { store: assertStore(options.store) } : {}),
    },
    onRepair: options.onRepair,
  };
}

/**
 * How a read treats the tail of a history (see docs/tail-policy.md).
 * - `"auto"`: repair the tail only when the tuple shows a run that stopped
 *   midway (pending tasks, no pending interrupt, latest checkpoint, not written
 *   by `updateState`); preserve it otherwise.
 * - `"repair"`: always close the tail: the next call is a new turn.
 * - `"preserve"`: never touch the tail: the next call resumes (`invoke(null)`).
 * - `"off"`: return what the wrapped saver returned.
 */
export type SanitizerPolicy = "auto" | "repair" | "preserve" | "off";

/** The `configurable` key that overrides the policy for one call. @internal */
export const POLICY_CONFIG_KEY = "sanitizer";

/** Every {@link SanitizerPolicy}, for validating options. */
export const POLICIES: readonly SanitizerPolicy[] = ["auto", "repair", "preserve", "off"];

/** The policy of one call: `configurable.sanitizer` when set, else the checkpointer's. */
export function policyFor(config: RunnableConfig, fallback: SanitizerPolicy): SanitizerPolicy {
  const override = config.configurable?.[POLICY_CONFIG_KEY];
  if (override === undefined) return fallback;
  assertOneOf(`configurable.${POLICY_CONFIG_KEY}`, override, POLICIES);
  return override;
}
