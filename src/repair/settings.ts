// Validated once where they come in, then taken as they are on every read.
import { resolveMarkers, type MarkerOption, type MarkerTexts } from "./synthetic/markers.js";
import { goesToClaude, PROVIDER_NAMES, type ProviderChoice } from "./rules/provider-patterns.js";
import { ruleSetFor, type RuleSet } from "./rules/rule-set.js";
import { isIdPrefix } from "../messages/synthetic-ids.js";
import { BRIDGE_ROLES, type BridgeRole } from "./synthetic/inserted-messages.js";
import { assertModelName, assertOneOf, assertOption, assertStore } from "../options/assert-option.js";

/** Options of a repair that hold for every history it reads. */
export interface RepairSettings {
  /**
   * Whose own rules to repair besides what every provider rejects and what a broken run left: a provider's name, or
   * `"strictest"` for all of them (docs/providers.md).
   * @default undefined: none; the middleware applies the rules of the provider each request goes to
   */
  provider?: ProviderChoice;
  /**
   * The model the history goes to (`"claude-sonnet-4-5"`): thinking blocks another model signed are dropped
   * (`foreign-thinking-block`), and a Claude model before 4.6 takes a prefill (`request-ends-on-reply` is lifted).
   * @default undefined: none; the middleware takes the model each request goes to
   */
  model?: string;
  /**
   * `false` when the OpenAI Responses API keeps nothing (`store: false`, `zdrEnabled`): reasoning items kept only by
   * id are dropped (`unkept-reasoning-item`).
   * @default undefined: as each reply records it; the middleware reads the chat model's `zdrEnabled`
   */
  store?: boolean;
  /**
   * Texts of inserted messages: `"en"`, `"ko"`, or custom texts (missing keys fall back to `"en"`, unknown keys throw).
   * @default "en"
   */
  markers?: MarkerOption;
  /** The `missing-reply` marker between HumanMessages; Anthropic and Gemini reject `"system"` there. @default "ai" */
  bridgeRole?: BridgeRole;
  /**
   * Put before the ids of inserted messages (`sanitizer-…`), for a front end that hides messages by id: agent-chat-ui
   * renders no message whose id starts with `"do-not-render-"`. Letters, digits and `_-:.`, ending in one of `_-:.`.
   * @default "": the ids start `sanitizer-`
   */
  idPrefix?: string;
}

/** @deprecated The same type under its old name: use {@link RepairSettings}. */
export type RepairRules = RepairSettings;

/** @internal */
export interface ResolvedRepairSettings {
  provider: ProviderChoice | undefined;
  rules: RuleSet;
  model: string | undefined;
  toClaude: boolean;
  store: boolean | undefined;
  markers: Readonly<MarkerTexts>;
  bridgeRole: BridgeRole;
  idPrefix: string;
}

/** @internal */
export function resolveRepairSettings(options: RepairSettings): ResolvedRepairSettings {
  const { provider, model, store, bridgeRole = "ai", idPrefix = "" } = options;
  if (provider !== undefined) assertOneOf("provider", provider, PROVIDER_NAMES);
  assertModelName(model);
  assertStore(store);
  assertOneOf("bridgeRole", bridgeRole, BRIDGE_ROLES);
  assertOption(
    "idPrefix",
    idPrefix,
    isIdPrefix(idPrefix),
    'must be "" or letters, digits and _-:. ending in one of _-:.',
  );
  return settingsOf(provider, model, store, resolveMarkers(options.markers), bridgeRole, idPrefix);
}

/** Field by field, not spread: on Node 20 a spread object with a field added costs a microsecond, on every call. */
function settingsOf(
  provider: ProviderChoice | undefined,
  model: string | undefined,
  store: boolean | undefined,
  markers: Readonly<MarkerTexts>,
  bridgeRole: BridgeRole,
  idPrefix: string,
): ResolvedRepairSettings {
  const rules = ruleSetFor(provider, model);
  return { provider, rules, model, toClaude: goesToClaude(provider, model), store, markers, bridgeRole, idPrefix };
}

/** For the middleware's provider and model, per request. @internal */
export function withRules(
  settings: ResolvedRepairSettings,
  provider: ProviderChoice | undefined,
  model: string | undefined,
  store: boolean | undefined,
): ResolvedRepairSettings {
  return settingsOf(provider, model, store, settings.markers, settings.bridgeRole, settings.idPrefix);
}
