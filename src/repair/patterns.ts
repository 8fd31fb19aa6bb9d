/**
 * The broken-history patterns the sanitizer repairs, as users see them: each pattern's description, taken from its
 * unit (`patterns/<kind>.ts`), and the report of one repair.
 */
import type { Pattern } from "./pattern.js";
import { UNITS } from "./patterns/index.js";

export type { Pattern, Scope } from "./pattern.js";

/** A pattern's short code (the design brief's ids), as in `Repair.code`, metrics and the doctor's report. */
export type PatternId = keyof typeof UNITS;

/** Every pattern, by code: what it is, what the repair does, and where it applies. */
export const PATTERNS: { readonly [K in PatternId]: Readonly<Pattern> & Pick<(typeof UNITS)[K], "kind" | "applies"> } =
  Object.freeze(
    Object.fromEntries(
      Object.entries(UNITS).map(([code, { kind, summary, shape, repair, applies }]) => [
        code,
        Object.freeze({ kind, summary, shape, repair, applies }),
      ]),
    ),
  ) as never;

/** A pattern's descriptive name, as reported in `Repair.kind`: `"missing-reply"`, `"orphan-tool-result"`, … */
export type RepairKind = (typeof UNITS)[PatternId]["kind"];

/** What a repair did to the message list. */
export type RepairAction = "inserted" | "removed" | "moved" | "rewritten";

/** One change the repair made, for logs, metrics and audits. */
export interface Repair {
  /** The pattern this change fixes, by name (`"missing-reply"`, `"unanswered-tool-calls"`, …). */
  kind: RepairKind;
  /** The same pattern's short code (`"A"`, `"B"`, …), as in the README's table and the doctor's report. */
  code: PatternId;
  action: RepairAction;
  /** Position in the repaired list (`inserted`, `moved`, `rewritten`) or in the input list (`removed`). */
  index: number;
  /** For `moved` and `rewritten`: the position the message had in the input list. */
  from?: number;
  /** The message inserted, removed (whole, so nothing is lost), moved, or the copy written in place of `original`. */
  message: unknown;
  /** For `rewritten` (and an `N` result inserted under a new call id): the stored message, whole. */
  original?: unknown;
  /** The id of that message, when it has one. */
  messageId?: string;
  /** The tool call the message answers, for tool results. */
  toolCallId?: string;
}
