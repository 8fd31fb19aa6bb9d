import type { Pattern } from "../rules/define-pattern.js";
import { UNITS } from "../patterns/index.js";

export type { Pattern, Scope } from "../rules/define-pattern.js";

/** A pattern's short code, as in `Repair.code`, metrics and the doctor's report. */
export type PatternId = keyof typeof UNITS;

export const PATTERNS: { readonly [K in PatternId]: Readonly<Pattern> & Pick<(typeof UNITS)[K], "kind" | "applies"> } =
  Object.freeze(
    Object.fromEntries(
      Object.entries(UNITS).map(([code, { kind, summary, shape, repair, applies }]) => [
        code,
        Object.freeze({ kind, summary, shape, repair, applies }),
      ]),
    ),
  ) as never;

/** As reported in `Repair.kind`: `"missing-reply"`, `"orphan-tool-result"`, … */
export type RepairKind = (typeof UNITS)[PatternId]["kind"];

export type RepairAction = "inserted" | "removed" | "moved" | "rewritten";

/** One change the repair made, for logs, metrics and audits. */
export interface Repair {
  kind: RepairKind;
  /** As in the README's table (`"A"`, `"B"`, …). */
  code: PatternId;
  action: RepairAction;
  /** In the repaired list, or for `removed` in the input list. */
  index: number;
  /** For `moved` and `rewritten`: the position in the input list. */
  from?: number;
  /** Whole, so nothing is lost; for `rewritten`, the copy. */
  message: unknown;
  /** For `rewritten` (and an `N` result under a new call id): the stored message, whole. */
  original?: unknown;
  messageId?: string;
  /** For tool results. */
  toolCallId?: string;
}
