/**
 * The broken-history patterns the sanitizer repairs: the one place each is described. The README's table is
 * checked against it by a test, and each pattern's test is `test/patterns/<code>.test.ts`.
 */

/** A pattern's short code (the design brief's ids), as in the doctor's report and the test file names. */
export type PatternId =
  | "A"
  | "B"
  | "B2"
  | "B3"
  | "C"
  | "D"
  | "E"
  | "F"
  | "G"
  | "H"
  | "I"
  | "J"
  | "K"
  | "L"
  | "M"
  | "N"
  | "P"
  | "Q"
  | "R"
  | "S"
  | "T"
  | "U"
  | "V"
  | "W"
  | "X"
  | "Y"
  | "Z";

/**
 * Where a pattern is repaired:
 * - `"anywhere"`: what every provider rejects, wherever it is in the history;
 * - `"leftovers"`: what a cancelled or failed run left behind, closed for every provider when new input follows
 *   (the end of a run that stopped midway, and a turn whose calls the repair had to answer);
 * - `"provider"`: a rule of some providers only (the user first, roles alternating, no empty turn, no SystemMessage
 *   mid-history), repaired only under the `provider` option, or by the middleware for the provider it calls (see
 *   `PROVIDER_RULES`);
 * - `"model"`: a rule of the model the history goes to (whose signatures it takes), repaired only where that model
 *   is known: the `model` option, or the middleware for the model it calls.
 */
export type Scope = "anywhere" | "leftovers" | "provider" | "model";

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
    applies: ["leftovers", "provider"],
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
    applies: ["leftovers", "provider"],
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
    applies: ["provider"],
  },
  K: {
    kind: "consecutive-replies",
    shape:
      "an AIMessage right after an AIMessage without tool calls: a partial answer kept on stop, then a regenerated " +
      "one, or two agents' replies (a supervisor's handoff back)",
    repair: "insert a marker HumanMessage between them; both replies stay as stored",
    applies: ["provider"],
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
  Q: {
    kind: "unpaired-server-tool-block",
    shape:
      "an Anthropic server tool's block without its other half: a server_tool_use (web search, web fetch, code " +
      "execution) whose *_tool_result never came (a stream cut off, or a client that drops that result block), or a " +
      "result whose use is gone. A use answered in the next reply, or still pending where a request ends (the API " +
      "runs it then), is not unpaired",
    repair: "rewrite a copy without the unpaired block, dropped whole (reported); a finished use and its result stay",
    applies: ["anywhere"],
  },
  R: {
    kind: "unsigned-thinking-block",
    shape:
      "a thinking block cut off before its signature (signature empty or missing, as a stopped stream leaves it), or " +
      "a redacted_thinking block without its data: Anthropic rejects it. A Gemini reply's thought parts need no " +
      "signature and stay, but where the history goes to Claude (`provider` anthropic, or a Claude `model`) every " +
      "thinking block without a signature goes, whoever made it",
    repair: "rewrite a copy without the block, dropped whole (reported); every signed block stays as stored, in place",
    applies: ["anywhere"],
  },
  S: {
    kind: "foreign-thinking-block",
    shape:
      "thinking or redacted_thinking blocks of a reply another model made (a fallback, a model switch): Anthropic " +
      "checks each signature against the model it calls",
    repair: "rewrite a copy without them, dropped whole (reported), for the model the history goes to",
    applies: ["model"],
  },
  T: {
    kind: "unsigned-gemini-call",
    shape:
      "a reply of the current turn whose first call lost its Gemini thought signature (a message rewritten or " +
      "merged, or a call another model made): Gemini 3 rejects it",
    repair:
      "rewrite a copy whose call carries Gemini's documented skip_thought_signature_validator; signatures that are " +
      "there stay with their calls through every id rewrite",
    applies: ["provider"],
  },
  U: {
    kind: "unfinished-hosted-tool-item",
    shape:
      "a Responses hosted-tool item (web search, file search, code interpreter, image generation, MCP, shell) " +
      "stored before it finished (status in_progress, searching, interpreting, generating, calling or incomplete)",
    repair: "rewrite a copy of the stored output without it, dropped whole (reported)",
    applies: ["anywhere"],
  },
  V: {
    kind: "unkept-reasoning-item",
    shape:
      "a Responses reasoning item the API cannot find: kept only by its id (no encrypted_content) from a response " +
      "that never completed (a partial reply saved on stop), or that store: false never kept",
    repair: "rewrite a copy without it, dropped whole (reported)",
    applies: ["anywhere"],
  },
  W: {
    kind: "empty-tool-result",
    shape: "a ToolMessage with no text (a tool that returned nothing): Bedrock rejects its blank toolResult",
    repair: "rewrite a copy with a marker text",
    applies: ["provider"],
  },
  X: {
    kind: "empty-user-turn",
    shape: "a HumanMessage with no content (an empty send): Anthropic, Gemini and Bedrock reject it",
    repair: "rewrite a copy with a marker text",
    applies: ["provider"],
  },
  Y: {
    kind: "system-message-mid-history",
    shape:
      "a SystemMessage after the conversation started (a summary, an instruction added mid-run): Anthropic (but " +
      "its newest models), Gemini and Mistral reject it",
    repair: "send a HumanMessage copy of it, with its content and id, in its place",
    applies: ["provider"],
  },
  Z: {
    kind: "request-ends-on-reply",
    shape:
      "a model request that ends on a reply (the middleware's requests; a read is followed by new input): the models " +
      "without assistant prefill (Claude 4.6 and newer), Gemini and Mistral reject it. A turn the API paused " +
      "(pause_turn) is sent back to be continued and stays",
    repair: "append a marker HumanMessage",
    applies: ["provider"],
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
