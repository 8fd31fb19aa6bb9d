export {
  repairMessages,
  type RepairOptions,
  type RepairResult,
  type TailKind,
  type TailMode,
} from "./repair/repair-messages.js";
export type { RepairRules, RepairSettings } from "./repair/settings.js";
export {
  PATTERNS,
  type Pattern,
  type PatternId,
  type Repair,
  type RepairAction,
  type RepairKind,
  type Scope,
} from "./repair/report/catalog.js";
export { MARKER_PRESETS, type MarkerOption, type MarkerTexts } from "./repair/synthetic/markers.js";
export type { ProviderChoice, ProviderName, ProviderRules } from "./repair/rules/provider-patterns.js";
export { InvalidOptionError } from "./options/invalid-option-error.js";
export { isSyntheticMessage, SYNTHETIC_ID_PREFIX, type BridgeRole } from "./repair/synthetic/inserted-messages.js";
export {
  SanitizingCheckpointer,
  type RepairEvent,
  type SanitizingCheckpointerOptions,
} from "./checkpointer/sanitizing-checkpointer.js";
export { type SanitizerPolicy, type TailPolicy } from "./options/policy.js";
export { hasPendingInterrupt, hasPendingTasks } from "./checkpointer/thread-state.js";
export { FastJsonPlusSerializer } from "./serde/fast-jsonplus-serializer.js";
export { sanitizeGraph } from "./graph/sanitize-graph.js";
export type { TelemetryOption } from "./telemetry/telemetry-option.js";
export { prune, PruneNotSupportedError } from "./retention/prune.js";
export type { PruneOptions } from "./retention/options.js";
export type { PruneProgress, PruneReport, PruneTotals, PrunedThread } from "./retention/report.js";
