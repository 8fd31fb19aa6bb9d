/** Short builders for histories in tests: ids are given so outputs can be compared by id. */
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";

export const human = (id: string, content = `user ${id}`) => new HumanMessage({ id, content });
export const system = (id: string, content = "You are helpful.") => new SystemMessage({ id, content });
export const reply = (id: string, content = `reply ${id}`) => new AIMessage({ id, content });
export const calls = (id: string, ...callIds: string[]) =>
  new AIMessage({
    id,
    content: "",
    tool_calls: callIds.map((c) => ({ id: c, name: `tool_${c}`, args: {}, type: "tool_call" as const })),
  });
export const result = (id: string, callId: string, content = `result ${id}`) =>
  new ToolMessage({ id, content, tool_call_id: callId, name: `tool_${callId}` });

/**
 * An AIMessageChunk saved while its call streamed, as an app that keeps partial replies stores it: text, the
 * call's partial input as ChatAnthropic streams it (`input_json_delta`), and the call's chunk.
 */
export function streamedCall(id: string, callId: string): AIMessageChunk {
  const partial = '{"city": "Pa';
  return new AIMessageChunk({
    id,
    content: [
      { type: "text", text: "Let me check. ", index: 0 },
      { type: "input_json_delta", input: partial, index: 1 },
    ] as never,
    tool_call_chunks: [{ id: callId, name: `tool_${callId}`, args: partial, index: 1, type: "tool_call_chunk" }],
  });
}

/** A compact picture of a history: `type:id`, for readable assertions. */
export const shape = (messages: readonly unknown[]) =>
  messages.map((m) => {
    const msg = m as { type?: string; id?: string; tool_call_id?: string };
    return `${msg.type}:${msg.id}${msg.tool_call_id ? `>${msg.tool_call_id}` : ""}`;
  });

/**
 * AIMessages as each integration stores a turn with valid calls and calls whose arguments did not
 * parse (truncated JSON), so tests see every place a converter reads calls from.
 */
const ARGS = '{"q": "x"}';
const TRUNCATED = '{"q": "unterminat';
const toolCall = (id: string) => ({ id, name: "search", args: { q: "x" }, type: "tool_call" as const });
const invalidCall = (id: string) => ({
  id,
  name: "search",
  args: TRUNCATED,
  error: "JSON parse error",
  type: "invalid_tool_call" as const,
});

/** An AIMessage with valid calls and calls whose arguments did not parse (`invalid_tool_calls`). */
export const withInvalidCalls = (
  id: string,
  valid: string[],
  invalid: string[],
  extra: Partial<ConstructorParameters<typeof AIMessage>[0] & object> = {},
) =>
  new AIMessage({
    id,
    content: "",
    tool_calls: valid.map((c) => ({ id: c, name: `tool_${c}`, args: {}, type: "tool_call" as const })),
    invalid_tool_calls: invalid.map((c) => ({
      id: c,
      name: `tool_${c}`,
      args: '{"city": Par',
      error: "malformed JSON",
      type: "invalid_tool_call" as const,
    })),
    ...extra,
  });

/** ChatOpenAI (completions): the raw calls, valid and invalid, in `additional_kwargs.tool_calls`. */
export const openAiTurn = (id: string, valid: string[], invalid: string[] = []) =>
  new AIMessage({
    id,
    content: "",
    tool_calls: valid.map(toolCall),
    invalid_tool_calls: invalid.map(invalidCall),
    additional_kwargs: {
      tool_calls: [...valid.map((c) => [c, ARGS] as const), ...invalid.map((c) => [c, TRUNCATED] as const)].map(
        ([c, args]) => ({
          id: c,
          type: "function" as const,
          function: { name: "search", arguments: args },
        }),
      ),
    },
  });

/** ChatAnthropic: a signed thinking block, then a `tool_use` block per call (input still raw text when truncated). */
export const anthropicTurn = (id: string, valid: string[], invalid: string[] = []) =>
  new AIMessage({
    id,
    content: [
      { type: "thinking", thinking: "Let me search.", signature: `sig-${id}` },
      ...valid.map((c) => ({ type: "tool_use", id: c, name: "search", input: { q: "x" } })),
      ...invalid.map((c) => ({ type: "tool_use", id: c, name: "search", input: TRUNCATED })),
    ],
    tool_calls: valid.map(toolCall),
    invalid_tool_calls: invalid.map(invalidCall),
  });

/** ChatOpenAI with `useResponsesApi`: the stored output items (a reasoning item, then a `function_call` per call). */
export const responsesTurn = (id: string, valid: string[], invalid: string[] = []) =>
  new AIMessage({
    id,
    content: "",
    tool_calls: valid.map(toolCall),
    invalid_tool_calls: invalid.map(invalidCall),
    response_metadata: {
      output: [
        { type: "reasoning", id: `rs_${id}`, summary: [], encrypted_content: `enc-${id}` },
        ...[...valid.map((c) => [c, ARGS]), ...invalid.map((c) => [c, TRUNCATED])].map(([c, args]) => ({
          type: "function_call",
          id: `fc_${c}`,
          call_id: c,
          name: "search",
          arguments: args,
        })),
      ],
    },
  });

/** ChatGoogleGenerativeAI: each call's thought signature in `additional_kwargs`, keyed by call id. */
export const geminiTurn = (id: string, valid: string[]) =>
  new AIMessage({
    id,
    content: "",
    tool_calls: valid.map(toolCall),
    additional_kwargs: {
      __gemini_function_call_thought_signatures__: Object.fromEntries(valid.map((c) => [c, `sig-${c}`])),
    },
  });
