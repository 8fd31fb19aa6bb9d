/**
 * OpenAI Responses API (`POST /openai/v1/responses`, SSE events when `stream: true`), which
 * ChatOpenAI uses with `useResponsesApi: true`.
 *
 * History rules, from https://platform.openai.com/docs/guides/function-calling (each
 * `function_call` item is answered by a `function_call_output` item with its `call_id`) and
 * https://platform.openai.com/docs/guides/reasoning (a reasoning item is passed back with the item
 * that followed it), and the API's 400 `invalid_request_error` texts.
 *
 * What the API keeps: the items of a response that completed, unless the request said `store: false`. A reasoning
 * item sent by its id only (no `encrypted_content`, which the API gives only when `include` asks for it) must be one
 * it kept ("Item with id 'rs_…' not found. Items are not persisted when `store` is set to false. Try again with
 * `store` set to true, or remove this item from your input.", openai-agents-python#919, langchain#38372). An item it
 * kept that came right after a reasoning item is sent after that item ("Item 'fc_…' of type 'function_call' was
 * provided without its required 'reasoning' item: 'rs_…'.", mastra#8738). Strict where no report quotes the case: a
 * hosted-tool item sent before it finished (in progress, searching, incomplete) is one the API never kept, and is
 * answered as such.
 */
import { sse, type ProviderApi, type StreamedReply } from "./server.js";
import { argsText, splitText, type LastTurn, type Rejection, type ScriptedReply } from "./script.js";

const MODEL = "gpt-5-mini";
interface Item {
  type?: string;
  role?: string;
  id?: string;
  call_id?: string;
  content?: unknown;
  status?: string;
  encrypted_content?: string;
}

/** The items the API kept, by id, with the reasoning item that came right before each. */
type ResponsesLedger = Map<string, { after: string | undefined }>;
type ResponsesIssue = Parameters<ProviderApi<ResponsesLedger>["json"]>[1];

const HOSTED = new Set([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "mcp_call",
  "shell_call",
]);
const UNFINISHED = new Set(["in_progress", "searching", "interpreting", "generating", "calling", "incomplete"]);
const notFound = (id: string | undefined) =>
  reject(
    `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
    "input",
  );

/** Each item sent by id is one the API kept, and one that followed a reasoning item follows it again. */
function keptError(input: Item[], ledger: ResponsesLedger): Rejection | undefined {
  for (const [i, item] of input.entries()) {
    if (item.type === "reasoning" && !item.encrypted_content && !ledger.has(item.id ?? "")) return notFound(item.id);
    if (HOSTED.has(item.type ?? "") && UNFINISHED.has(item.status ?? "")) return notFound(item.id);
    const after = ledger.get(item.id ?? "")?.after;
    if (after !== undefined && !(input[i - 1]?.type === "reasoning" && input[i - 1]?.id === after)) {
      return reject(
        `Item '${item.id}' of type '${item.type}' was provided without its required 'reasoning' item: '${after}'.`,
        "input",
      );
    }
  }
  return undefined;
}

const reject = (message: string, param: string | null = null): Rejection => ({
  status: 400,
  body: { error: { message, type: "invalid_request_error", param, code: null } },
});
const items = (body: Record<string, unknown>): Item[] =>
  typeof body.input === "string" ? [{ role: "user", content: body.input }] : ((body.input ?? []) as Item[]);

export function responsesError(body: Record<string, unknown>, ledger: ResponsesLedger): Rejection | undefined {
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
    // The item a reasoning item produced: the assistant's message, a call, or a hosted tool's item.
    const next = input[i + 1];
    if (
      item.type === "reasoning" &&
      !(next?.type?.endsWith("_call") || (next?.type === "message" && next.role === "assistant"))
    ) {
      return reject(`Item '${item.id}' of type 'reasoning' was provided without its required following item.`, "input");
    }
  }
  return keptError(input, ledger);
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

/**
 * The `response` object, with its output items: reasoning (its `encrypted_content` when `include` asks for it),
 * hosted tools' items, message, function calls; and the function that records them as kept once it completed.
 */
function response(reply: ScriptedReply, { body, nextId, ledger }: ResponsesIssue) {
  const encrypted = Array.isArray(body.include) && body.include.includes("reasoning.encrypted_content");
  const output = [
    ...(reply.thinking
      ? [
          {
            type: "reasoning",
            id: `rs_${nextId()}`,
            summary: [{ type: "summary_text", text: reply.thinking }],
            ...(encrypted ? { encrypted_content: `enc-${nextId()}` } : {}),
          },
        ]
      : []),
    ...(reply.serverTools ?? []).map((tool) => ({
      type: "web_search_call",
      id: `ws_${nextId()}`,
      status: tool.status ?? "completed",
      action: { type: "search", query: "weather in Paris" },
    })),
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
  const done = {
    id: `resp_${nextId()}`,
    object: "response",
    created_at: 1,
    status: reply.incomplete ? "incomplete" : "completed",
    ...(reply.incomplete ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
    model: MODEL,
    store: body.store !== false,
    output,
    usage: {
      input_tokens: 1,
      output_tokens: 1,
      total_tokens: 2,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
  const keep = () => {
    if (body.store === false) return;
    output.forEach((item, i) => {
      const before = output[i - 1];
      ledger.set(item.id, { after: before?.type === "reasoning" ? before.id : undefined });
    });
  };
  return { done, keep };
}

function stream(reply: ScriptedReply, issue: ResponsesIssue): StreamedReply {
  const { done, keep } = response(reply, issue);
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    sse({ type, sequence_number: sequence++, ...data }, type);
  const frames = [event("response.created", { response: { ...done, status: "in_progress", output: [] } })];
  const cuts: StreamedReply["cuts"] = {};
  done.output.forEach((item, output_index) => {
    if (item.type === "message") {
      frames.push(event("response.output_item.added", { output_index, item: { ...item, content: [] } }));
      for (const delta of splitText(reply.text ?? "")) {
        frames.push(event("response.output_text.delta", { output_index, content_index: 0, item_id: item.id, delta }));
        cuts.text ??= frames.length;
      }
    } else if (item.type === "reasoning") {
      frames.push(event("response.output_item.added", { output_index, item: { ...item, summary: [] } }));
      cuts.reasoning ??= frames.length;
    } else if (item.type === "web_search_call") {
      frames.push(event("response.output_item.added", { output_index, item: { ...item, status: "in_progress" } }));
      frames.push(event("response.web_search_call.searching", { output_index, item_id: item.id }));
      cuts["server-tool"] ??= frames.length;
    } else {
      frames.push(event("response.output_item.added", { output_index, item }));
    }
    frames.push(event("response.output_item.done", { output_index, item }));
  });
  frames.push(event(reply.incomplete ? "response.incomplete" : "response.completed", { response: done }));
  return { contentType: "text/event-stream", frames, cuts, completed: keep };
}

export const openAiResponses: ProviderApi<ResponsesLedger> = {
  name: "openai-responses",
  newLedger: () => new Map(),
  route: (path, body) => (path === "/openai/v1/responses" ? { stream: body.stream === true } : undefined),
  validate: responsesError,
  lastTurn,
  json: (reply, issue) => {
    const { done, keep } = response(reply, issue);
    keep();
    return done;
  },
  stream,
};
