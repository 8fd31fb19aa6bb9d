export { repairMessages, type RepairOptions, type RepairResult, type TailMode } from "./repair/repair-messages.js";
export type { RepairRules } from "./repair/settings.js";
export {
  PATTERNS,
  type Pattern,
  type PatternId,
  type Repair,
  type RepairAction,
  type RepairKind,
  type Scope,
} from "./repair/patterns.js";
export { MARKER_PRESETS, type MarkerOption, type MarkerTexts } from "./repair/markers.js";
export type { ProviderName, ProviderRules } from "./repair/provider-rules.js";
export { InvalidOptionError } from "./repair/errors.js";
export { isSyntheticMessage, SYNTHETIC_ID_PREFIX, type BridgeRole } from "./repair/synthetic.js";
export {
  SanitizingCheckpointer,
  type RepairEvent,
  type SanitizingCheckpointerOptions,
} from "./checkpointer/sanitizing-checkpointer.js";
export { type SanitizerPolicy } from "./options.js";
export { hasPendingInterrupt, hasPendingTasks } from "./checkpointer/thread-state.js";
export { FastJsonPlusSerializer } from "./serde/fast-jsonplus-serializer.js";
export { sanitizeGraph } from "./graph/sanitize-graph.js";
export type { TelemetryOption } from "./telemetry/telemetry-option.js";
export { prune, PruneNotSupportedError } from "./retention/prune.js";
export type { PruneOptions } from "./retention/options.js";
export type { PruneProgress, PruneReport, PruneTotals, PrunedThread } from "./retention/report.js";
