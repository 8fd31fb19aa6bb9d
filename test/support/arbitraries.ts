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

/** How a turn's calls are stored: LangChain's plain shape or an integration's (see `messages.ts`). */
type Format = "plain" | "openai" | "anthropic" | "responses" | "gemini";
/** What ids the calls get: fresh, one reused across turns, or ids some provider rejects. */
type IdKind = "fresh" | "reused" | "empty" | "blank" | "long" | "dotted";

/** How a reply holds its Responses reasoning: not at all, followed by its message, or cut off before it. */
type Reasoning = "none" | "followed" | "lone";

type Op =
  | { t: "human" }
  | { t: "reply"; thinking: boolean; reasoning: Reasoning }
  | { t: "chunk" }
  | { t: "remove" }
  | { t: "empty"; content: "" | " \n" | "[]" }
  | { t: "calls"; n: number; invalid: number; format: Format; ids: IdKind }
  | { t: "result"; pick: number }
  | { t: "orphan" };

const FORMATS: Format[] = ["plain", "openai", "anthropic", "responses", "gemini"];
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ t: "human" } as Op) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("reply" as const),
      thinking: fc.boolean(),
      reasoning: fc.constantFrom<Reasoning>("none", "none", "followed", "lone"),
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
  { weight: 5, arbitrary: fc.record({ t: fc.constant("result" as const), pick: fc.nat() }) },
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
          out.push(new HumanMessage({ id, content: `question ${i}` }));
          break;
        case "reply": {
          const reasoning = { type: "reasoning", id: `rs_${i}`, summary: [], encrypted_content: `enc${i}` };
          const message = { type: "message", id: `msg_${i}`, role: "assistant", content: [] };
          const output = { none: undefined, followed: [reasoning, message], lone: [reasoning] }[o.reasoning];
          out.push(
            new AIMessage({
              id,
              content: o.thinking
                ? [
                    { type: "thinking", thinking: "hmm", signature: `sig${i}` },
                    { type: "text", text: `answer ${i}` },
                  ]
                : `answer ${i}`,
              ...(output ? { response_metadata: { output } } : {}),
            }),
          );
          break;
        }
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
              content: `result ${i}`,
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

/**
 * A well-formed history that ends with a finished turn: every call answered in order, every turn
 * closed, valid unique ids; calls stored in every integration's shape, ChatOpenAI turns with an
 * invalid call next to valid ones (which no converter sends), thinking replies.
 */
export const cleanHistory: fc.Arbitrary<BaseMessage[]> = fc
  .array(
    fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...FORMATS), fc.boolean()), { maxLength: 3 }),
    { maxLength: 8 },
  )
  .map((turns) => {
    const out: BaseMessage[] = [new SystemMessage({ id: "sys", content: "system prompt" })];
    let n = 0;
    turns.forEach((steps, t) => {
      out.push(new HumanMessage({ id: `h${t}`, content: `question ${t}` }));
      for (const [callCount, format, withInvalid] of steps.filter(([c]) => c > 0)) {
        const ids = Array.from({ length: callCount }, () => `c${n++}`);
        const invalid = format === "openai" && withInvalid ? [`c${n++}`] : [];
        out.push(callTurn(`a${n}`, format, ids, invalid));
        for (const id of ids) out.push(new ToolMessage({ id: `r${id}`, content: "ok", tool_call_id: id }));
      }
      out.push(
        new AIMessage({
          id: `f${t}`,
          content: [
            { type: "thinking", thinking: "done", signature: `s${t}` },
            { type: "text", text: `answer ${t}` },
          ],
        }),
      );
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
