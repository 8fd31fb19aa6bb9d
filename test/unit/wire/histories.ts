/** Stored histories for the wire tests, built from LangChain messages as the clients store them. */
import { AIMessage, RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import { calls, human, reply, result, streamedCall, withInvalidCalls } from "../../support/generators/messages.js";
import { CLIENTS, type Client } from "../../support/provider-emulator/index.js";

/** A finished parallel-call turn: two calls, both answered, then the model's answer. */
export const parallelTurn = (): BaseMessage[] => [
  human("h1"),
  calls("a1", "c1", "c2"),
  result("t1", "c1"),
  result("t2", "c2"),
  reply("a2"),
];

/** Histories that break one rule each (the next user message included), by rule. */
export const BROKEN: Record<string, BaseMessage[]> = {
  "a call left unanswered": [human("h1"), calls("a1", "c1"), human("h2")],
  "one of two parallel calls unanswered": [human("h1"), calls("a1", "c1", "c2"), result("t1", "c1"), human("h2")],
  "a result answering no call": [human("h1"), reply("a1"), result("t1", "cx"), human("h2")],
  "a result for a call its turn did not make": [
    human("h1"),
    calls("a1", "c1"),
    result("t1", "c1"),
    result("t2", "cx"),
    reply("a2"),
    human("h2"),
  ],
  "two user turns in a row": [human("h1"), human("h2")],
  "starts with the assistant": [reply("a0"), human("h1")],
  "an empty text block": [human("h1"), new AIMessage({ id: "a1", content: [{ type: "text", text: "" }] }), human("h2")],
  "a user turn right after tool results": [human("h1"), calls("a1", "c1"), result("t1", "c1"), human("h2")],
  "two assistant turns in a row": [
    human("h1"),
    reply("a1"),
    calls("a2", "c1"),
    result("t1", "c1"),
    reply("a3"),
    human("h2"),
  ],
  "one call answered twice": [
    human("h1"),
    calls("a1", "c1"),
    result("t1", "c1"),
    result("t2", "c1"),
    reply("a2"),
    human("h2"),
  ],
  "a call id used twice": [
    human("h1"),
    calls("a1", "c1"),
    result("t1", "c1"),
    calls("a2", "c1"),
    result("t2", "c1"),
    reply("a3"),
    human("h2"),
  ],
  "an empty reply": [human("h1"), reply("a1", ""), human("h2")],
  "a blank reply": [human("h1"), reply("a1", "  "), human("h2")],
  "an empty call id": [human("h1"), calls("a1", ""), result("t1", ""), reply("a2"), human("h2")],
  "a blank call id": [human("h1"), calls("a1", "  "), result("t1", "  "), reply("a2"), human("h2")],
  "a call id over 40 characters": [
    human("h1"),
    calls("a1", "x".repeat(41)),
    result("t1", "x".repeat(41)),
    reply("a2"),
    human("h2"),
  ],
  "parallel results (clean)": [...parallelTurn(), human("h2")],
  "ends in the assistant's reply": [human("h1"), reply("a1")],
  "starts with a result whose call was trimmed away": [result("t0", "c0"), reply("a1"), human("h1")],
  "a RemoveMessage left in the list": [human("h1"), reply("a1"), new RemoveMessage({ id: "h0" }), human("h2")],
  "a reply saved mid-stream": [human("h1"), streamedCall("a1", "c1"), result("t1", "c1"), reply("a2"), human("h2")],
  "a reasoning item with nothing after it": [
    human("h1"),
    new AIMessage({
      id: "a1",
      content: "Thought about it.",
      response_metadata: { output: [{ type: "reasoning", id: "rs_1", summary: [] }] },
    }),
    human("h2"),
  ],
};

/** How ChatOpenAI stores calls: the raw ones (malformed arguments included) in `additional_kwargs.tool_calls`. */
const openAiKwargs = (ids: string[], invalid: string[]) => ({
  additional_kwargs: {
    tool_calls: [...ids, ...invalid].map((c) => ({
      id: c,
      type: "function",
      function: { name: `tool_${c}`, arguments: invalid.includes(c) ? '{"city": Par' : "{}" },
    })),
  },
});
/** How the Responses API client stores them: the output items, replayed as they are. */
const responsesOutput = (ids: string[], invalid: string[]) => ({
  response_metadata: {
    output: [...ids, ...invalid].map((c, i) => ({
      type: "function_call",
      id: `fc_${i}`,
      call_id: c,
      name: `tool_${c}`,
      arguments: invalid.includes(c) ? '{"city": Par' : "{}",
      status: "completed",
    })),
  },
});
/** How ChatAnthropic stores them: `tool_use` blocks in the content (an unparsed one with empty input). */
const anthropicBlocks = (ids: string[], invalid: string[]) => ({
  content: [...ids, ...invalid].map((c) => ({ type: "tool_use", id: c, name: `tool_${c}`, input: {} })),
});

/**
 * How an AIMessage's calls are stored: neutral, or as one client keeps them, with the clients that send
 * that shape (another client's converter throws on it, or drops it, before anything reaches the wire).
 */
export const STORED_AS = {
  "tool_calls + invalid_tool_calls": { extra: () => ({}), clients: CLIENTS },
  "ChatOpenAI additional_kwargs": { extra: openAiKwargs, clients: ["openai", "openai-responses"] },
  "Responses output items": { extra: responsesOutput, clients: ["openai-responses"] },
  "ChatAnthropic tool_use blocks": { extra: anthropicBlocks, clients: ["anthropic"] },
} satisfies Record<string, { extra: (ids: string[], invalid: string[]) => object; clients: readonly Client[] }>;

/** A stored thread of a finished run, and the clients it is sent through. */
export interface StoredThread {
  history: BaseMessage[];
  clients: readonly Client[];
}

/** The five defects of the issue as threads a finished run stored (the next user message comes on top). */
export function defectThreads(): Record<string, StoredThread> {
  const out: Record<string, StoredThread> = {};
  for (const [as, { extra, clients }] of Object.entries(STORED_AS)) {
    const valid = withInvalidCalls("a1", ["c1"], ["c2"], extra(["c1"], ["c2"]));
    out[`1. a valid call and an invalid one, stored as ${as}`] = {
      history: [human("h1"), valid, result("t1", "c1"), reply("a2")],
      clients,
    };
    out[`3. a turn whose only call is invalid, stored as ${as}`] = {
      history: [human("h1"), withInvalidCalls("a1", [], ["c9"], extra([], ["c9"]))],
      clients,
    };
  }
  const everywhere = (history: BaseMessage[]) => ({ history, clients: CLIENTS });
  return {
    ...out,
    "2. an empty reply ending a finished run": everywhere([human("h1"), reply("a1", "")]),
    "2. an empty content list ending a finished run": everywhere([
      human("h1"),
      new AIMessage({ id: "a1", content: [] }),
    ]),
    "4. an empty call id": everywhere([human("h1"), calls("a1", ""), result("t1", ""), reply("a2")]),
    "4. a blank call id": everywhere([human("h1"), calls("a1", "   "), result("t1", "   "), reply("a2")]),
    "4. a call id outside [A-Za-z0-9_-]": everywhere([
      human("h1"),
      calls("a1", "call.1:x"),
      result("t1", "call.1:x"),
      reply("a2"),
    ]),
    "4. a call id over 40 characters": everywhere([
      human("h1"),
      calls("a1", "x".repeat(41)),
      result("t1", "x".repeat(41)),
      reply("a2"),
    ]),
    "4. a call id used twice": everywhere([
      human("h1"),
      calls("a1", "c1"),
      result("t1", "c1"),
      calls("a2", "c1"),
      result("t2", "c1"),
      reply("a3"),
    ]),
    "5. a result stored after the next user message": everywhere([
      human("h1"),
      calls("a1", "c1"),
      human("h2"),
      result("t1", "c1"),
    ]),
  };
}
