/** Stored histories for the wire tests, built from LangChain messages as the clients store them. */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { calls, human, reply, result } from "../support/messages.js";

/** An AIMessage with valid calls and calls whose arguments did not parse (`invalid_tool_calls`). */
export const withInvalidCalls = (id: string, valid: string[], invalid: string[], extra: Partial<ConstructorParameters<typeof AIMessage>[0] & object> = {}) =>
  new AIMessage({
    id,
    content: "",
    tool_calls: valid.map((c) => ({ id: c, name: `tool_${c}`, args: {}, type: "tool_call" as const })),
    invalid_tool_calls: invalid.map((c) => ({ id: c, name: `tool_${c}`, args: '{"city": Par', error: "malformed JSON", type: "invalid_tool_call" as const })),
    ...extra,
  });

/** A finished parallel-call turn: two calls, both answered, then the model's answer. */
export const parallelTurn = (): BaseMessage[] => [human("h1"), calls("a1", "c1", "c2"), result("t1", "c1"), result("t2", "c2"), reply("a2")];

/** Histories that break one rule each (the next user message included), by rule. */
export const BROKEN: Record<string, BaseMessage[]> = {
  "a call left unanswered": [human("h1"), calls("a1", "c1"), human("h2")],
  "one of two parallel calls unanswered": [human("h1"), calls("a1", "c1", "c2"), result("t1", "c1"), human("h2")],
  "a result answering no call": [human("h1"), reply("a1"), result("t1", "cx"), human("h2")],
  "two user turns in a row": [human("h1"), human("h2")],
  "a user turn right after tool results": [human("h1"), calls("a1", "c1"), result("t1", "c1"), human("h2")],
  "two assistant turns in a row": [human("h1"), reply("a1"), calls("a2", "c1"), result("t1", "c1"), reply("a3"), human("h2")],
  "one call answered twice": [human("h1"), calls("a1", "c1"), result("t1", "c1"), result("t2", "c1"), reply("a2"), human("h2")],
  "a call id used twice": [human("h1"), calls("a1", "c1"), result("t1", "c1"), calls("a2", "c1"), result("t2", "c1"), reply("a3"), human("h2")],
  "an empty reply": [human("h1"), reply("a1", ""), human("h2")],
  "a blank reply": [human("h1"), reply("a1", "  "), human("h2")],
  "an empty call id": [human("h1"), calls("a1", ""), result("t1", ""), reply("a2"), human("h2")],
  "a blank call id": [human("h1"), calls("a1", "  "), result("t1", "  "), reply("a2"), human("h2")],
  "a call id over 40 characters": [human("h1"), calls("a1", "x".repeat(41)), result("t1", "x".repeat(41)), reply("a2"), human("h2")],
  "parallel results (clean)": [...parallelTurn(), human("h2")],
  "ends in the assistant's reply": [human("h1"), reply("a1")],
  "a reasoning item with nothing after it": [
    human("h1"),
    new AIMessage({ id: "a1", content: "Thought about it.", response_metadata: { output: [{ type: "reasoning", id: "rs_1", summary: [] }] } }),
    human("h2"),
  ],
};
