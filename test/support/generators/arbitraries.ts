/** fast-check generators of chat histories, broken and clean, in the shapes the integrations store. */
import {
  AIMessage,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from "@langchain/core/messages";
import fc from "fast-check";
import { anthropicTurn, geminiTurn, openAiTurn, responsesTurn, streamedCall, withInvalidCalls } from "./messages.js";
import { repairMessages } from "../../../src/index.js";

/** How a turn's calls are stored: LangChain's plain shape or an integration's (see `messages.ts`). */
type Format = "plain" | "openai" | "anthropic" | "responses" | "gemini";
/** What ids the calls get: fresh, one reused across turns, or ids some provider rejects. */
type IdKind = "fresh" | "reused" | "empty" | "blank" | "long" | "dotted";

/**
 * How a reply holds its Responses items: not at all, a reasoning item followed by its message, or cut off before
 * it; a reasoning item kept only by id in a partial reply whose response never completed, or in the output of a
 * response `store: false` never kept; a hosted web search stored before it finished.
 */
type Reasoning = "none" | "followed" | "lone" | "partial" | "not-stored" | "searching";
/**
 * How a reply holds Anthropic's thinking: none, signed, cut off before its signature, redacted, redacted without
 * data, or signed blocks followed by one cut off.
 */
type Thinking = "none" | "signed" | "cut" | "redacted" | "redacted-empty" | "signed-then-cut";
/**
 * A server tool in the reply: none, finished (its use then its result), its use cut off, a result whose use is gone,
 * or its use in this reply and its result in a second reply right after (a paused turn and its continuation).
 */
type Server = "none" | "finished" | "cut" | "orphan" | "split";

type Op =
  | { t: "human"; empty: boolean }
  | { t: "system" }
  | { t: "reply"; thinking: Thinking; reasoning: Reasoning; server: Server; otherModel: boolean }
  | { t: "chunk" }
  | { t: "remove" }
  | { t: "empty"; content: "" | " \n" | "[]" }
  | { t: "calls"; n: number; invalid: number; format: Format; ids: IdKind }
  | { t: "result"; pick: number; empty: boolean }
  | { t: "orphan" };

const FORMATS: Format[] = ["plain", "openai", "anthropic", "responses", "gemini"];
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ t: fc.constant("human" as const), empty: fc.constantFrom(false, false, false, true) }),
  },
  { weight: 1, arbitrary: fc.constant({ t: "system" } as Op) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("reply" as const),
      thinking: fc.constantFrom<Thinking>(
        "none",
        "none",
        "signed",
        "signed",
        "cut",
        "redacted",
        "redacted-empty",
        "signed-then-cut",
      ),
      reasoning: fc.constantFrom<Reasoning>("none", "none", "followed", "lone", "partial", "not-stored", "searching"),
      server: fc.constantFrom<Server>("none", "none", "none", "finished", "cut", "orphan", "split"),
      otherModel: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: "chunk" } as Op) },
  { weight: 1, arbitrary: fc.constant({ t: "remove" } as Op) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("empty" as const),
      content: fc.constantFrom("" as const, " \n" as const, "[]" as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("calls" as const),
      n: fc.integer({ min: 1, max: 3 }),
      invalid: fc.integer({ min: 0, max: 3 }),
      format: fc.constantFrom(...FORMATS),
      ids: fc.constantFrom<IdKind>("fresh", "fresh", "fresh", "reused", "empty", "blank", "long", "dotted"),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("result" as const),
      pick: fc.nat(),
      empty: fc.constantFrom(false, false, false, false, true),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: "orphan" } as Op) },
);

const callId = (kind: IdKind, n: number, k: number): string => {
  switch (kind) {
    case "fresh":
      return `c${n}`;
    case "reused":
      return `call_${k}`;
    case "empty":
      return "";
    case "blank":
      return "  ";
    case "long":
      return `chatcmpl-tool-${"0123456789abcdef".repeat(2)}${n}`;
    case "dotted":
      return `call.${n}`;
  }
};

/** A turn of `valid` calls and `invalid` ones (truncated arguments), stored as `format` stores it. */
function callTurn(id: string, format: Format, valid: string[], invalid: string[]): AIMessage {
  switch (format) {
    case "openai":
      return openAiTurn(id, valid, invalid);
    case "anthropic":
      return anthropicTurn(id, valid, invalid);
    case "responses":
      return responsesTurn(id, valid, invalid);
    case "gemini":
      return geminiTurn(id, [...valid, ...invalid]);
    case "plain":
      return withInvalidCalls(id, valid, invalid);
  }
}

const THINKING: Record<Thinking, object[]> = {
  none: [],
  signed: [{ type: "thinking", thinking: "hmm", signature: "sig" }],
  cut: [{ type: "thinking", thinking: "hm", signature: "" }],
  redacted: [{ type: "redacted_thinking", data: "opaque" }],
  "redacted-empty": [{ type: "redacted_thinking" }],
  // Interleaved thinking: a signed block, a redacted one, then one cut off before its signature.
  "signed-then-cut": [
    { type: "thinking", thinking: "hmm", signature: "sig" },
    { type: "redacted_thinking", data: "opaque" },
    { type: "thinking", thinking: "hm", signature: "" },
  ],
};

/** A web search as Anthropic runs it: its use, then its result (`srvtoolu_` ids). */
const serverBlocks = (server: Server, i: number): object[] => {
  const use = { type: "server_tool_use", id: `srvtoolu_${i}`, name: "web_search", input: { query: "q" } };
  const found = { type: "web_search_tool_result", tool_use_id: `srvtoolu_${i}`, content: [] };
  return { none: [], finished: [use, found], cut: [use], orphan: [found], split: [use] }[server];
};

/** A reply with text, and the thinking, server tool blocks and Responses items `o` asks for. */
function replyOf(o: Extract<Op, { t: "reply" }>, i: number): AIMessage {
  const reasoning = { type: "reasoning", id: `rs_${i}`, summary: [], encrypted_content: `enc${i}` };
  const byId = { type: "reasoning", id: `rs_${i}`, summary: [] };
  const message = { type: "message", id: `msg_${i}`, role: "assistant", content: [] };
  const searching = { type: "web_search_call", id: `ws_${i}`, status: "searching" };
  const { output, kwargs, metadata } = {
    none: {},
    followed: { output: [reasoning, message] },
    lone: { output: [reasoning] },
    partial: { kwargs: { reasoning: byId }, metadata: { model_provider: "openai", id: `resp_${i}` } },
    "not-stored": { output: [byId, message], metadata: { store: false } },
    searching: { output: [reasoning, searching, message] },
  }[o.reasoning] as { output?: object[]; kwargs?: Record<string, unknown>; metadata?: object };
  const blocks = [...THINKING[o.thinking], ...serverBlocks(o.server, i)];
  return new AIMessage({
    id: `m${i}`,
    content: (blocks.length > 0 ? [...blocks, { type: "text", text: `answer ${i}` }] : `answer ${i}`) as never,
    ...(kwargs ? { additional_kwargs: kwargs } : {}),
    response_metadata: {
      ...metadata,
      ...(output ? { output } : {}),
      ...(o.otherModel ? { model: "claude-opus-4-1-20250805" } : { model: "claude-sonnet-4-5-20250929" }),
    },
  });
}

/**
 * Any history: turns in any order (a reply first, replies in a row); tool calls stored as each integration
 * stores them (content `tool_use` blocks with signed thinking, `additional_kwargs.tool_calls`, Responses output
 * items with reasoning, Gemini signature maps), some invalid, with fresh, reused, empty, blank, long or
 * malformed ids; results late, twice, out of order or missing; orphan results; empty replies; thinking replies;
 * replies whose stored Responses output holds a reasoning item cut off from its message; replies saved
 * mid-stream (`input_json_delta` blocks, call chunks); leftover RemoveMessages; an optional leading system prompt.
 */
export const anyHistory: fc.Arbitrary<BaseMessage[]> = fc
  .tuple(fc.boolean(), fc.array(op, { maxLength: 30 }))
  .map(([withSystem, ops]) => {
    const out: BaseMessage[] = withSystem ? [new SystemMessage({ id: "sys", content: "system prompt" })] : [];
    const declared: string[] = [];
    let fresh = 0;
    ops.forEach((o, i) => {
      const id = `m${i}`;
      switch (o.t) {
        case "human":
          out.push(new HumanMessage({ id, content: o.empty ? "" : `question ${i}` }));
          break;
        case "system":
          out.push(new SystemMessage({ id, content: `summary up to ${i}` }));
          break;
        case "reply":
          out.push(replyOf(o, i));
          if (o.server === "split") {
            const continued = { type: "web_search_tool_result", tool_use_id: `srvtoolu_${i}`, content: [] };
            out.push(
              new AIMessage({ id: `${id}-continued`, content: [continued, { type: "text", text: "found" }] as never }),
            );
          }
          break;
        case "chunk": {
          const call = `c${fresh++}`;
          declared.push(call);
          out.push(streamedCall(id, call));
          break;
        }
        case "remove":
          out.push(new RemoveMessage({ id: `gone${i}` }) as unknown as BaseMessage);
          break;
        case "empty":
          out.push(new AIMessage({ id, content: o.content === "[]" ? [] : o.content }));
          break;
        case "calls": {
          // ChatAnthropic, the Responses API and Gemini always give ids of their own; empty, blank and
          // malformed ids come from OpenAI-compatible servers and hand-built messages.
          const kind =
            (o.format === "plain" || o.format === "openai") && o.ids !== "reused"
              ? o.ids
              : o.ids === "reused"
                ? "reused"
                : "fresh";
          const ids = Array.from({ length: o.n }, (_, k) => callId(kind, fresh++, k));
          const invalid = Math.min(o.invalid, o.n);
          declared.push(...ids);
          out.push(callTurn(id, o.format, ids.slice(0, o.n - invalid), ids.slice(o.n - invalid)));
          break;
        }
        case "result":
          if (declared.length === 0) break;
          out.push(
            new ToolMessage({
              id,
              content: o.empty ? "" : `result ${i}`,
              tool_call_id: declared[o.pick % declared.length]!,
              name: "tool",
            }),
          );
          break;
        case "orphan":
          out.push(new ToolMessage({ id, content: `orphan ${i}`, tool_call_id: `ghost${i}`, name: "tool" }));
          break;
      }
    });
    return out;
  });

/** How a clean turn's final reply holds the newest features' blocks, finished: all of them stay as stored. */
type FinishedBlocks = "thinking" | "server" | "redacted" | "hosted";

/** The final reply of clean turn `t`, with its finished blocks (signed thinking first, as Anthropic gives it). */
function finishedReply(t: number, blocks: FinishedBlocks): AIMessage {
  const thinking = { type: "thinking", thinking: "done", signature: `s${t}` };
  const text = { type: "text", text: `answer ${t}` };
  switch (blocks) {
    case "thinking":
      return new AIMessage({ id: `f${t}`, content: [thinking, text] });
    case "redacted":
      return new AIMessage({
        id: `f${t}`,
        content: [thinking, { type: "redacted_thinking", data: `r${t}` }, text] as never,
      });
    case "server":
      return new AIMessage({
        id: `f${t}`,
        content: [
          thinking,
          { type: "server_tool_use", id: `srvtoolu_${t}`, name: "web_search", input: { query: "q" } },
          { type: "web_search_tool_result", tool_use_id: `srvtoolu_${t}`, content: [] },
          text,
        ] as never,
      });
    case "hosted":
      return new AIMessage({
        id: `f${t}`,
        content: `answer ${t}`,
        response_metadata: {
          model_provider: "openai",
          status: "completed",
          output: [
            { type: "reasoning", id: `rs_f${t}`, summary: [], encrypted_content: `enc${t}` },
            { type: "web_search_call", id: `ws_${t}`, status: "completed" },
            { type: "message", id: `msg_f${t}`, role: "assistant", content: [] },
          ],
        },
      });
  }
}

/**
 * A well-formed history that ends with a finished turn: every call answered in order, every turn
 * closed, valid unique ids; calls stored in every integration's shape, ChatOpenAI turns with an
 * invalid call next to valid ones (which no converter sends), replies with signed and redacted thinking, a
 * finished server tool, finished hosted tools.
 */
export const cleanHistory: fc.Arbitrary<BaseMessage[]> = fc
  .array(
    fc.tuple(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...FORMATS), fc.boolean()), { maxLength: 3 }),
      fc.constantFrom<FinishedBlocks>("thinking", "server", "redacted", "hosted"),
    ),
    { maxLength: 8 },
  )
  .map((turns) => {
    const out: BaseMessage[] = [new SystemMessage({ id: "sys", content: "system prompt" })];
    let n = 0;
    turns.forEach(([steps, blocks], t) => {
      out.push(new HumanMessage({ id: `h${t}`, content: `question ${t}` }));
      for (const [callCount, format, withInvalid] of steps.filter(([c]) => c > 0)) {
        const ids = Array.from({ length: callCount }, () => `c${n++}`);
        const invalid = format === "openai" && withInvalid ? [`c${n++}`] : [];
        out.push(callTurn(`a${n}`, format, ids, invalid));
        for (const id of ids) out.push(new ToolMessage({ id: `r${id}`, content: "ok", tool_call_id: id }));
      }
      out.push(finishedReply(t, blocks));
    });
    return out;
  });

/**
 * A well-formed history as a model call sends it: a clean history followed by the new input, or with its last
 * reply not given yet, so that it ends in tool results (or the question).
 */
export const cleanRequestHistory: fc.Arbitrary<BaseMessage[]> = fc
  .tuple(cleanHistory, fc.constantFrom("new input", "awaiting reply"))
  .map(([history, end]) =>
    end === "new input"
      ? [...history, new HumanMessage({ id: "next", content: "next question" })]
      : history.slice(0, -1),
  );

/**
 * Finished histories that break only some providers' role order, as apps store them on purpose: an opening
 * greeting, a supervisor's agent answering then handing back, two user turns sent in one input, a tool that ends
 * the run (results, then the next user turn). Built from {@link cleanHistory}.
 */
export const roleOrderHistory: fc.Arbitrary<BaseMessage[]> = fc
  .tuple(cleanHistory, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([history, picks, greeting]) => {
    const out = [...history];
    picks.forEach((pick, k) => {
      const at = 1 + (pick % out.length);
      const before = out[at - 1]!;
      if (before.type === "human") out.splice(at, 0, new HumanMessage({ id: `extra-h${k}`, content: "and this" }));
      else if (before.type === "ai" && !(before as AIMessage).tool_calls?.length)
        out.splice(at, 0, new AIMessage({ id: `handoff${k}`, content: "Transferring back to supervisor" }));
      // Results of a tool that ends the run: the reply after them goes.
      else if (before.type === "tool" && out[at]?.type === "ai" && !(out[at] as AIMessage).tool_calls?.length)
        out.splice(at, 1);
    });
    if (greeting) out.splice(1, 0, new AIMessage({ id: "greeting", content: "Hi! How can I help?" }));
    return out;
  });

/** Calls no result of `history` answers, in order. */
function unansweredCalls(history: readonly BaseMessage[]): { id: string; name: string }[] {
  const answered = new Set(history.filter((m) => m.type === "tool").map((m) => (m as ToolMessage).tool_call_id));
  return history
    .flatMap((m) => (m.type === "ai" ? ((m as AIMessage).tool_calls ?? []) : []))
    .filter((c) => c.id !== undefined && !answered.has(c.id))
    .map((c) => ({ id: c.id!, name: c.name }));
}

/**
 * A stored history and what a client sends next (the run's input), as chat front ends send it after a Stop: nothing
 * (`{messages: []}`), a message, stand-ins for the calls left open with or without a message, a frontend tool's
 * results, a partial reply the page kept and the store never got, the transcript's last messages sent again, or the
 * whole state a read returned.
 */
export const storedAndInput: fc.Arbitrary<{ stored: BaseMessage[]; input: BaseMessage[] }> = fc
  .tuple(
    fc.oneof(anyHistory, cleanHistory, roleOrderHistory),
    fc.constantFrom(
      "nothing",
      "message",
      "stand-ins and message",
      "stand-ins",
      "partial reply",
      "transcript",
      "the state read",
    ),
    fc.nat(),
  )
  .map(([stored, kind, pick]) => {
    const next = new HumanMessage({ id: "next", content: "next question" });
    const standIns = unansweredCalls(stored).map(
      ({ id, name }) =>
        new ToolMessage({ id: `stub-${id}`, content: '{"cancelled":true}', tool_call_id: id, name, status: "error" }),
    );
    const partial = new AIMessage({
      id: "partial",
      content: "Let me check. ",
      tool_calls: [{ id: "call_partial", name: "search", args: {}, type: "tool_call" }],
    });
    const inputs: Record<typeof kind, BaseMessage[]> = {
      nothing: [],
      message: [next],
      "stand-ins and message": [...standIns, next],
      "stand-ins": standIns,
      "partial reply": [partial, next],
      // RemoveMessages are instructions to the reducer, never part of a client's transcript.
      transcript: [...stored.slice(stored.length - (pick % (stored.length + 1))), next].filter(
        (m) => m.type !== "remove",
      ),
      // CopilotKit's: the state a read returned (the sanitizer's own messages in it), then the new message.
      "the state read": [...(repairMessages(stored).messages as BaseMessage[]), next].filter(
        (m) => m.type !== "remove",
      ),
    };
    return { stored, input: inputs[kind] };
  });
