/**
 * The broken-history patterns the sanitizer repairs: the one place each is described. The README's table is
 * checked against it by a test, and each pattern's test is `test/patterns/<code>.test.ts`.
 */

/** A pattern's short code (the design brief's ids), as in the doctor's report and the test file names. */
export type PatternId =
  "A" | "B" | "B2" | "B3" | "C" | "D" | "E" | "F" | "G" | "H" | "I" | "J" | "K" | "L" | "M" | "N" | "P";

/**
 * Where a pattern is repaired:
 * - `"anywhere"`: what every provider rejects, wherever it is in the history;
 * - `"leftovers"`: what a cancelled or failed run left behind, closed for every provider when new input follows
 *   (the end of a run that stopped midway, and a turn whose calls the repair had to answer);
 * - `"role-order"`: a rule of some providers only (the user first, roles alternating), repaired only under the
 *   `provider` option, or by the middleware for the provider it calls (see `PROVIDER_RULES`).
 */
export type Scope = "anywhere" | "leftovers" | "role-order";

/** One pattern: its descriptive name (`Repair.kind`), the shape it repairs, what the repair does, and where. */
export interface Pattern {
  kind: string;
  shape: string;
  repair: string;
  /** Where the repair applies; a pattern in two scopes says in `shape` which occurrences are which. */
  applies: readonly Scope[];
}

/** Every pattern, by code. */
export const PATTERNS = Object.freeze({
  A: {
    kind: "missing-reply",
    shape:
      "a HumanMessage with no reply before the next one. Leftovers: the user turn a run stopped midway never " +
      "answered (or it ended on), closed when new input follows. Role order: two stored user turns in a row, " +
      "which an app may send on purpose (a document, then the question)",
    repair: "insert a marker AIMessage after it",
    applies: ["leftovers", "role-order"],
  },
  B: {
    kind: "unanswered-tool-calls",
    shape: "AIMessage whose tool calls have no ToolMessage at all",
    repair: "insert a placeholder ToolMessage (status error) for each call",
    applies: ["anywhere"],
  },
  B2: {
    kind: "partly-answered-tool-calls",
    shape: "AIMessage with parallel tool calls only partly answered",
    repair: "insert a placeholder ToolMessage for each unanswered call",
    applies: ["anywhere"],
  },
  B3: {
    kind: "unanswered-hidden-call",
    shape: "a call sent from outside tool_calls (typically an invalid call: truncated arguments) never answered",
    repair: "insert a placeholder ToolMessage for it, once the call is in tool_calls (pattern G)",
    applies: ["anywhere"],
  },
  C: {
    kind: "unclosed-tool-results",
    shape:
      "a run of ToolMessages not closed by an AIMessage before the next HumanMessage or the end. Leftovers: the " +
      "results of a turn the repair had to answer, or the end of a run that stopped midway, when new input " +
      "follows. Role order: real results before a user turn (a tool that ends the run, such as returnDirect)",
    repair: "insert a marker AIMessage after the run",
    applies: ["leftovers", "role-order"],
  },
  D: {
    kind: "orphan-tool-result",
    shape: "orphan ToolMessage: no earlier AIMessage made its call",
    repair: "remove it (it is reported whole)",
    applies: ["anywhere"],
  },
  E: {
    kind: "misplaced-tool-result",
    shape: "tool result not right after its call, or results out of call order",
    repair: "move it into place after its AIMessage, in call order",
    applies: ["anywhere"],
  },
  F: {
    kind: "duplicate-tool-result",
    shape: "two results for one tool_call_id",
    repair: "keep one (a real result over a sanitizer placeholder, else the first) and remove the other",
    applies: ["anywhere"],
  },
  G: {
    kind: "call-outside-tool-calls",
    shape:
      "AIMessage with a call some integrations send and others do not: additional_kwargs.tool_calls while " +
      "tool_calls is empty, or a content tool_use/tool_call/function_call block or a Responses output " +
      "function_call item missing from tool_calls",
    repair: "rewrite a copy with the call in tool_calls (truncated arguments as {}), so every integration sends it",
    applies: ["anywhere"],
  },
  H: {
    kind: "empty-reply",
    shape: "empty AIMessage: no text and no tool calls",
    repair: "remove it (reported whole); if that leaves the turn open at the end, close it with a marker (A or C)",
    applies: ["anywhere"],
  },
  I: {
    kind: "invalid-call-id",
    shape: "call id providers reject: empty, blank, not [A-Za-z0-9_-], over 40 characters, or reused by a later call",
    repair:
      "give the call and its results one deterministic replacement id (copies); of calls sharing an id the last keeps it",
    applies: ["anywhere"],
  },
  J: {
    kind: "leading-reply",
    shape:
      "the history starts (after any SystemMessage) with an AIMessage: the messages before it were trimmed or " +
      "deleted, or it is an app's opening greeting",
    repair: "insert a marker HumanMessage before it",
    applies: ["role-order"],
  },
  K: {
    kind: "consecutive-replies",
    shape:
      "an AIMessage right after an AIMessage without tool calls: a partial answer kept on stop, then a regenerated " +
      "one, or two agents' replies (a supervisor's handoff back)",
    repair: "insert a marker HumanMessage between them; both replies stay as stored",
    applies: ["role-order"],
  },
  L: {
    kind: "leftover-remove-message",
    shape: "a RemoveMessage left in the stored list (a reducer that does not apply removals), which no converter sends",
    repair: "remove it (it is reported whole)",
    applies: ["anywhere"],
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
    applies: ["anywhere"],
  },
  N: {
    kind: "stranded-tool-result",
    shape: "finished tool results stranded in pendingWrites while their call is unanswered",
    repair: "use the real result instead of a placeholder, and drop that pending write",
    applies: ["anywhere"],
  },
  P: {
    kind: "lone-reasoning-item",
    shape:
      "a Responses reasoning item stored without the item that followed it (a partial reply saved on stop), " +
      "which the Responses API rejects",
    repair: "rewrite a copy of the stored output without it",
    applies: ["anywhere"],
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
