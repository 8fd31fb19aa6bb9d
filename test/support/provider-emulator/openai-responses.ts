/**
 * OpenAI Responses API (`POST /openai/v1/responses`, SSE events when `stream: true`), which
 * ChatOpenAI uses with `useResponsesApi: true`.
 *
 * History rules, from https://platform.openai.com/docs/guides/function-calling (each
 * `function_call` item is answered by a `function_call_output` item with its `call_id`) and
 * https://platform.openai.com/docs/guides/reasoning (a reasoning item is passed back with the item
 * that followed it), and the API's 400 `invalid_request_error` texts.
 */
import { sse, type ProviderApi } from "./server.js";
import { argsText, splitText, type LastTurn, type Rejection, type ScriptedReply } from "./script.js";

const MODEL = "gpt-5-mini";
interface Item {
  type?: string;
  role?: string;
  id?: string;
  call_id?: string;
  content?: unknown;
}

const reject = (message: string, param: string | null = null): Rejection => ({
  status: 400,
  body: { error: { message, type: "invalid_request_error", param, code: null } },
});
const items = (body: Record<string, unknown>): Item[] =>
  typeof body.input === "string" ? [{ role: "user", content: body.input }] : ((body.input ?? []) as Item[]);

export function responsesError(body: Record<string, unknown>): Rejection | undefined {
  const input = items(body);
  for (const [i, item] of input.entries()) {
    if (item.type === "function_call" || item.type === "function_call_output") {
      if (!item.call_id) {
        return reject(
          `Invalid 'input[${i}].call_id': empty string. Expected a string with minimum length 1, but got an empty string instead.`,
          `input[${i}].call_id`,
        );
      }
    }
    if (
      item.type === "function_call" &&
      !input.slice(i + 1).some((o) => o.type === "function_call_output" && o.call_id === item.call_id)
    ) {
      return reject(`No tool output found for function call ${item.call_id}.`, "input");
    }
    if (
      item.type === "function_call_output" &&
      !input.slice(0, i).some((c) => c.type === "function_call" && c.call_id === item.call_id)
    ) {
      return reject(`No tool call found for function call output with call_id ${item.call_id}.`, "input");
    }
    const next = input[i + 1];
    if (
      item.type === "reasoning" &&
      !(next?.type === "function_call" || (next?.type === "message" && next.role === "assistant"))
    ) {
      return reject(`Item '${item.id}' of type 'reasoning' was provided without its required following item.`, "input");
    }
  }
  return undefined;
}

const text = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: string }) => p.text ?? "").join("")
      : "";

function lastTurn(body: Record<string, unknown>): LastTurn {
  const last = items(body).at(-1);
  if (!last) return { role: "none", text: "" };
  if (last.type === "function_call_output") return { role: "tool", text: "" };
  return { role: last.role === "user" ? "user" : "assistant", text: text(last.content) };
}

/** The `response` object, with its output items: reasoning, message, function calls. */
function response(reply: ScriptedReply, nextId: () => number) {
  const output = [
    ...(reply.thinking
      ? [
          {
            type: "reasoning",
            id: `rs_${nextId()}`,
            summary: [{ type: "summary_text", text: reply.thinking }],
            encrypted_content: `enc-${nextId()}`,
          },
        ]
      : []),
    ...(reply.text
      ? [
          {
            type: "message",
            id: `msg_${nextId()}`,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: reply.text, annotations: [] }],
          },
        ]
      : []),
    ...(reply.calls ?? []).map((call) => {
      const n = nextId();
      return {
        type: "function_call",
        id: `fc_${n}`,
        call_id: `call_${n}`,
        name: call.name,
        arguments: argsText(call),
        status: "completed",
      };
    }),
  ];
  return {
    id: `resp_${nextId()}`,
    object: "response",
    created_at: 1,
    status: "completed",
    model: MODEL,
    output,
    usage: {
      input_tokens: 1,
      output_tokens: 1,
      total_tokens: 2,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

function stream(reply: ScriptedReply, nextId: () => number) {
  const done = response(reply, nextId);
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    sse({ type, sequence_number: sequence++, ...data }, type);
  const frames = [event("response.created", { response: { ...done, status: "in_progress", output: [] } })];
  let beforeHang = 0;
  done.output.forEach((item, output_index) => {
    if (item.type === "message") {
      frames.push(event("response.output_item.added", { output_index, item: { ...item, content: [] } }));
      for (const delta of splitText(reply.text ?? "")) {
        frames.push(event("response.output_text.delta", { output_index, content_index: 0, item_id: item.id, delta }));
        beforeHang ||= frames.length;
      }
    } else {
      frames.push(event("response.output_item.added", { output_index, item }));
    }
    frames.push(event("response.output_item.done", { output_index, item }));
  });
  frames.push(event("response.completed", { response: done }));
  return { contentType: "text/event-stream", frames, beforeHang: beforeHang || frames.length };
}

export const openAiResponses: ProviderApi = {
  name: "openai-responses",
  route: (path, body) => (path === "/openai/v1/responses" ? { stream: body.stream === true } : undefined),
  validate: responsesError,
  lastTurn,
  json: response,
  stream,
};
