/**
 * The engine's options, validated once where they come in (`repairMessages`, the checkpointer's and the
 * middleware's constructors) and resolved into what every read then takes as it is.
 */
import { resolveMarkers, type MarkerOption, type MarkerTexts } from "./markers.js";
import { goesToClaude, PROVIDER_RULE_NAMES, type ProviderRules } from "./provider-rules.js";
import { ruleSetFor, type RuleSet } from "./rule-set.js";
import { BRIDGE_ROLES, type BridgeRole } from "./synthetic.js";
import { assertModelName, assertOneOf, assertStore } from "./validate.js";

/** The options of a repair that hold for every history it reads (see `RepairOptions`). */
export interface RepairRules {
  /**
   * Whose own rules to repair besides what every provider rejects and what a broken run left (role order, empty
   * turns, a SystemMessage mid-history, …): a provider's name, or `"strictest"` for all of them at once (an app that
   * switches models). Each provider's rules are the provider table's (docs/providers.md).
   * @default undefined: the checkpointer and `repairMessages` repair only what every provider rejects and what a
   * broken run left; the middleware applies the rules of the provider each request goes to, as the provider table
   * places its chat model (none for a model it cannot place)
   */
  provider?: ProviderRules;
  /**
   * The model the history goes to (`"claude-sonnet-4-5"`; a date snapshot, `-latest` or a Bedrock id names one
   * model): thinking blocks another model signed (a fallback, a model switch) are dropped for it (pattern S), as
   * Anthropic rejects them; a Claude model before 4.6 takes a prefill (pattern Z is lifted for it under Anthropic's
   * and Bedrock's rules).
   * @default undefined: no thinking block is taken for another model's; the middleware takes the model each request
   * goes to
   */
  model?: string;
  /**
   * `false` when the OpenAI Responses API keeps nothing of the app's responses (`store: false`, ChatOpenAI's
   * `zdrEnabled`): a stored reply's reasoning item kept only by its id is dropped (pattern V), as the API cannot
   * find it.
   * @default undefined: as each reply records it (a streamed one does); the middleware reads the chat model's
   * `zdrEnabled`
   */
  store?: boolean;
  /**
   * Texts of the messages the repair inserts: `"en"`, `"ko"`, or custom texts (missing keys fall back to `"en"`;
   * an unknown key is an error).
   * @default "en"
   */
  markers?: MarkerOption;
  /**
   * Role of the marker between two HumanMessages (pattern A). `"system"` (the originating design) is rejected
   * mid-history by Anthropic and Gemini.
   * @default "ai"
   */
  bridgeRole?: BridgeRole;
}

/** {@link RepairRules} resolved: what the engine reads on every history. @internal */
export interface RepairSettings {
  /** The `provider` option, as given. */
  provider: ProviderRules | undefined;
  rules: RuleSet;
  model: string | undefined;
  /** Whether the history goes to a Claude model, which rejects every thinking block without a signature (R). */
  toClaude: boolean;
  store: boolean | undefined;
  markers: Readonly<MarkerTexts>;
  bridgeRole: BridgeRole;
}

/** Validates `options` (an `InvalidOptionError` names the bad one) and resolves them. @internal */
export function resolveRepairSettings(options: RepairRules): RepairSettings {
  const { provider, model, store, bridgeRole = "ai" } = options;
  if (provider !== undefined) assertOneOf("provider", provider, PROVIDER_RULE_NAMES);
  assertModelName(model);
  assertStore(store);
  assertOneOf("bridgeRole", bridgeRole, BRIDGE_ROLES);
  return settingsOf(provider, model, store, resolveMarkers(options.markers), bridgeRole);
}

/**
 * The settings, with whose rules apply derived from the provider and the model. Built field by field, not spread:
 * `repairMessages` resolves on every call, and on Node 20 a spread object with a field added costs a microsecond.
 */
function settingsOf(
  provider: ProviderRules | undefined,
  model: string | undefined,
  store: boolean | undefined,
  markers: Readonly<MarkerTexts>,
  bridgeRole: BridgeRole,
): RepairSettings {
  const rules = ruleSetFor(provider, model);
  return { provider, rules, model, toClaude: goesToClaude(provider, model), store, markers, bridgeRole };
}

/** `settings` for another provider and model (the middleware's, per request), with the rest as resolved. @internal */
export function withRules(
  settings: RepairSettings,
  provider: ProviderRules | undefined,
  model: string | undefined,
  store: boolean | undefined,
): RepairSettings {
  return settingsOf(provider, model, store, settings.markers, settings.bridgeRole);
}
