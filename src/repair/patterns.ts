/**
 * The broken-history patterns the sanitizer repairs, by the ids used in the
 * design brief, the tests (`test/patterns/<id>.test.ts`) and the README.
 */
export type PatternId = "A" | "B" | "B2" | "B3" | "C" | "D" | "E" | "F" | "H" | "N";

/** One line per pattern: the shape, and what the repair does about it. */
export const PATTERNS: Readonly<Record<PatternId, { shape: string; repair: string }>> = Object.freeze({
  A: {
    shape: "HumanMessage followed by another HumanMessage (the reply is missing)",
    repair: "insert a marker AIMessage between them",
  },
  B: {
    shape: "AIMessage whose tool calls have no ToolMessage at all",
    repair: "insert a placeholder ToolMessage (status error) for each call",
  },
  B2: {
    shape: "AIMessage with parallel tool calls only partly answered",
    repair: "insert a placeholder ToolMessage for each unanswered call",
  },
  B3: {
    shape: "an invalid_tool_calls entry never answered",
    repair: "insert a placeholder ToolMessage for it",
  },
  C: {
    shape: "a run of ToolMessages not closed by an AIMessage before the next HumanMessage or the end",
    repair: "insert a marker AIMessage after the run",
  },
  D: {
    shape: "orphan ToolMessage: no earlier AIMessage made its call",
    repair: "remove it (it is reported whole)",
  },
  E: {
    shape: "tool result not right after its call, or results out of call order",
    repair: "move it into place after its AIMessage, in call order",
  },
  F: {
    shape: "two results for one tool_call_id",
    repair: "keep one (a real result over a sanitizer placeholder, else the first) and remove the other",
  },
  H: {
    shape: "empty AIMessage: no text and no tool calls",
    repair: "remove it (it is reported whole)",
  },
  N: {
    shape: "finished tool results stranded in pendingWrites while their call is unanswered",
    repair: "use the real result instead of a placeholder, and drop that pending write",
  },
});

/** What a repair did to the message list. */
export type RepairAction = "inserted" | "removed" | "moved";

/** One change the repair made, for logs, metrics and audits. */
export interface Repair {
  /** The pattern this change fixes. */
  kind: PatternId;
  action: RepairAction;
  /** Position in the repaired list (`inserted`, `moved`) or in the input list (`removed`). */
  index: number;
  /** For `moved`: the position the message had in the input list. */
  from?: number;
  /** The message inserted, removed (whole, so nothing is lost) or moved. */
  message: unknown;
  /** The id of that message, when it has one. */
  messageId?: string;
  /** The tool call the message answers, for tool results. */
  toolCallId?: string;
}
