/**
 * The broken-history patterns the sanitizer repairs: the one place each is described. The README's table is
 * checked against it by a test, and each pattern's test is `test/patterns/<code>.test.ts`.
 */

/** A pattern's short code (the design brief's ids), as in the doctor's report and the test file names. */
export type PatternId =
  "A" | "B" | "B2" | "B3" | "C" | "D" | "E" | "F" | "G" | "H" | "I" | "J" | "K" | "L" | "M" | "N" | "P";

/** One pattern: its descriptive name (`Repair.kind`), the shape it repairs, and what the repair does. */
export interface Pattern {
  kind: string;
  shape: string;
  repair: string;
}

/** Every pattern, by code. */
export const PATTERNS = Object.freeze({
  A: {
    kind: "missing-reply",
    shape: "HumanMessage followed by another HumanMessage (the reply is missing)",
    repair: "insert a marker AIMessage between them",
  },
  B: {
    kind: "unanswered-tool-calls",
    shape: "AIMessage whose tool calls have no ToolMessage at all",
    repair: "insert a placeholder ToolMessage (status error) for each call",
  },
  B2: {
    kind: "partly-answered-tool-calls",
    shape: "AIMessage with parallel tool calls only partly answered",
    repair: "insert a placeholder ToolMessage for each unanswered call",
  },
  B3: {
    kind: "unanswered-hidden-call",
    shape: "a call sent from outside tool_calls (typically an invalid call: truncated arguments) never answered",
    repair: "insert a placeholder ToolMessage for it, once the call is in tool_calls (pattern G)",
  },
  C: {
    kind: "unclosed-tool-results",
    shape: "a run of ToolMessages not closed by an AIMessage before the next HumanMessage or the end",
    repair: "insert a marker AIMessage after the run",
  },
  D: {
    kind: "orphan-tool-result",
    shape: "orphan ToolMessage: no earlier AIMessage made its call",
    repair: "remove it (it is reported whole)",
  },
  E: {
    kind: "misplaced-tool-result",
    shape: "tool result not right after its call, or results out of call order",
    repair: "move it into place after its AIMessage, in call order",
  },
  F: {
    kind: "duplicate-tool-result",
    shape: "two results for one tool_call_id",
    repair: "keep one (a real result over a sanitizer placeholder, else the first) and remove the other",
  },
  G: {
    kind: "call-outside-tool-calls",
    shape:
      "AIMessage with a call some integrations send and others do not: additional_kwargs.tool_calls while " +
      "tool_calls is empty, or a content tool_use/tool_call/function_call block or a Responses output " +
      "function_call item missing from tool_calls",
    repair: "rewrite a copy with the call in tool_calls (truncated arguments as {}), so every integration sends it",
  },
  H: {
    kind: "empty-reply",
    shape: "empty AIMessage: no text and no tool calls",
    repair: "remove it (reported whole); if that leaves the turn open at the end, close it with a marker (A or C)",
  },
  I: {
    kind: "invalid-call-id",
    shape: "call id providers reject: empty, blank, not [A-Za-z0-9_-], over 40 characters, or reused by a later call",
    repair:
      "give the call and its results one deterministic replacement id (copies); of calls sharing an id the last keeps it",
  },
  J: {
    kind: "leading-reply",
    shape:
      "the history starts (after any SystemMessage) with an AIMessage: the messages before it were trimmed or " +
      "deleted, or it is an app's opening greeting",
    repair: "insert a marker HumanMessage before it",
  },
  K: {
    kind: "consecutive-replies",
    shape:
      "an AIMessage right after an AIMessage without tool calls: a partial answer kept on stop, then a regenerated one",
    repair: "insert a marker HumanMessage between them; both replies stay as stored",
  },
  L: {
    kind: "leftover-remove-message",
    shape: "a RemoveMessage left in the stored list (a reducer that does not apply removals), which no converter sends",
    repair: "remove it (it is reported whole)",
  },
  M: {
    kind: "unfinished-stream-chunk",
    shape:
      "an AIMessage saved mid-stream: a call's input streamed into content blocks only a stream carries " +
      "(input_json_delta, tool_call_chunk) stops before its JSON ends, or a call chunk's arguments do; no provider " +
      "accepts such blocks (a reply streamed to its end keeps them whole, and is left as stored)",
    repair:
      "rewrite a plain copy without those blocks; its calls stay in tool_calls (as far as they parse) and are " +
      "answered as B, even at the end: no run executes a call that never finished streaming",
  },
  N: {
    kind: "stranded-tool-result",
    shape: "finished tool results stranded in pendingWrites while their call is unanswered",
    repair: "use the real result instead of a placeholder, and drop that pending write",
  },
  P: {
    kind: "lone-reasoning-item",
    shape:
      "a Responses reasoning item stored without the item that followed it (a partial reply saved on stop), " +
      "which the Responses API rejects",
    repair: "rewrite a copy of the stored output without it",
  },
} as const satisfies Record<PatternId, Pattern>);

/** A pattern's descriptive name, as reported in `Repair.kind`: `"missing-reply"`, `"orphan-tool-result"`, … */
export type RepairKind = (typeof PATTERNS)[PatternId]["kind"];

/** The `kind` and `code` a {@link Repair} of pattern `code` carries. @internal */
export function patternOf(code: PatternId): { kind: RepairKind; code: PatternId } {
  return { kind: PATTERNS[code].kind, code };
}

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
