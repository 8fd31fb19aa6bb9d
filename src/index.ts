export {
  repairMessages,
  type RepairOptions,
  type RepairResult,
  type TailMode,
} from "./repair/repair-messages.js";
export { PATTERNS, type PatternId, type Repair, type RepairAction } from "./repair/patterns.js";
export { MARKER_PRESETS, type MarkerOption, type MarkerTexts } from "./repair/markers.js";
export { isSyntheticMessage, SYNTHETIC_ID_PREFIX, type BridgeRole } from "./repair/synthetic.js";
export { findTailStart } from "./repair/tail.js";
