/**
 * The broken-history patterns the sanitizer repairs, by the ids used in the
 * design brief, the tests (`test/patterns/<id>.test.ts`) and the README.
 */
export type PatternId = "A" | "B" | "B2" | "B3" | "C" | "D" | "E" | "F" | "G" | "H" | "I" | "N";

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
    shape: "a call sent from outside tool_calls (typically an invalid call: truncated arguments) never answered",
    repair: "insert a placeholder ToolMessage for it, once the call is in tool_calls (pattern G)",
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
  G: {
    shape:
      "AIMessage with a call some integrations send and others do not: additional_kwargs.tool_calls while " +
      "tool_calls is empty, or a content tool_use/tool_call/function_call block or a Responses output " +
      "function_call item missing from tool_calls",
    repair: "rewrite a copy with the call in tool_calls (truncated arguments as {}), so every integration sends it",
  },
  H: {
    shape: "empty AIMessage: no text and no tool calls",
    repair: "remove it (reported whole); if that leaves the turn open at the end, close it with a marker (A or C)",
  },
  I: {
    shape: "call id providers reject: empty, blank, not [A-Za-z0-9_-], over 40 characters, or reused by a later call",
    repair:
      "give the call and its results one deterministic replacement id (copies); of calls sharing an id the last keeps it",
  },
  N: {
    shape: "finished tool results stranded in pendingWrites while their call is unanswered",
    repair: "use the real result instead of a placeholder, and drop that pending write",
  },
});

/** What a repair did to the message list. */
export type RepairAction = "inserted" | "removed" | "moved" | "rewritten";

/** One change the repair made, for logs, metrics and audits. */
export interface Repair {
  /** The pattern this change fixes. */
  kind: PatternId;
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
