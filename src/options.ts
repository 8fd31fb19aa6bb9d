/** Validation of options, with one wording everywhere. */
import { resolveMarkers, type MarkerOption, type MarkerTexts } from "./repair/markers.js";
import { BRIDGE_ROLES, type BridgeRole } from "./repair/synthetic.js";

/** Throws a `TypeError` naming `name` unless `value` is one of `allowed`. */
export function assertOneOf<T>(name: string, value: unknown, allowed: readonly T[]): asserts value is T {
  if (!allowed.includes(value as T)) {
    throw new TypeError(
      `${name} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}.`,
    );
  }
}

/** The options the checkpointer and the middleware share: what inserted messages look like, and a report hook. */
export interface SharedRepairOptions<Event> {
  /** Texts of inserted messages: `"en"`, `"ko"`, or custom texts (missing keys fall back to `"en"`). @default "en" */
  markers?: MarkerOption;
  /** Role of the marker between two HumanMessages. `"system"` breaks Anthropic and Gemini. @default "ai" */
  bridgeRole?: BridgeRole;
  /** Called for each repair, for logs and metrics. It runs inside the call: keep it fast, and do not throw. */
  onRepair?: (event: Event) => void;
}

/** {@link SharedRepairOptions} once validated: what to pass to `repairMessages`, and the hook. @internal */
export interface ResolvedRepairOptions<Event> {
  repair: { markers: Readonly<MarkerTexts>; bridgeRole?: BridgeRole };
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
  const markers = resolveMarkers(options.markers);
  return {
    repair: { markers, ...(options.bridgeRole !== undefined ? { bridgeRole: options.bridgeRole } : {}) },
    onRepair: options.onRepair,
  };
}
