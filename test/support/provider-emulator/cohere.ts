/**
 * Cohere's chat v1 (`POST /cohere/v1/chat`, newline-delimited JSON events when `stream: true`), which ChatCohere
 * calls: the last message as `message` (or, after tool results, `tool_results` and an empty message), every other
 * one in `chat_history`.
 *
 * History rules, from the API's 400 texts: "invalid request: message must be at least 1 token long or tool results
 * must be specified" (Risuai#504), "invalid request: cannot specify message if the last entry in chat history contains
 * tool results" (a user turn right after tool results, langchain-oracle#9), and Command A's "An assistant message
 * with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'" (langchain-oracle#10), strict
 * where the older models take it.
 */
import { splitText, type LastTurn, type Rejection, type ScriptedReply } from "./script.js";
import { NO_LEDGER, type ProviderApi } from "./server.js";

interface Entry {
  role: string;
  message?: string;
  tool_calls?: unknown[];
  tool_results?: unknown[];
}

const reject = (message: string): Rejection => ({ status: 400, body: { message } });

function cohereError(body: Record<string, unknown>): Rejection | undefined {
  const history = (body.chat_history ?? []) as Entry[];
  const results = (body.tool_results ?? []) as unknown[];
  const message = typeof body.message === "string" ? body.message : "";
  if (message.trim() === "" && results.length === 0) {
    return reject("invalid request: message must be at least 1 token long or tool results must be specified.");
  }
  for (const [i, entry] of history.entries()) {
    if (entry.role !== "CHATBOT" || !entry.tool_calls?.length) continue;
    const next = history[i + 1];
    const answered = next === undefined ? results.length > 0 : next.role === "TOOL";
    if (!answered) {
      return reject(
        "invalid request: An assistant message with 'tool_calls' must be followed by tool messages responding to " +
          "each 'tool_call_id'.",
      );
    }
  }
  if (history.at(-1)?.role === "TOOL" && message !== "") {
    return reject("invalid request: cannot specify message if the last entry in chat history contains tool results");
  }
  return undefined;
}

function lastTurn(body: Record<string, unknown>): LastTurn {
  if (((body.tool_results ?? []) as unknown[]).length > 0) return { role: "tool", text: "" };
  return { role: "user", text: typeof body.message === "string" ? body.message : "" };
}

const line = (data: unknown) => `${JSON.stringify(data)}\n`;

function response(reply: ScriptedReply, id: number) {
  const tool_calls = (reply.calls ?? []).map((call) => ({ name: call.name, parameters: call.args ?? {} }));
  return {
    response_id: `resp-${id}`,
    text: reply.text ?? "",
    generation_id: `gen-${id}`,
    chat_history: [],
    finish_reason: "COMPLETE",
    ...(tool_calls.length > 0 ? { tool_calls } : {}),
    meta: { billed_units: { input_tokens: 1, output_tokens: 1 }, tokens: { input_tokens: 1, output_tokens: 1 } },
  };
}

export const cohere: ProviderApi = {
  name: "cohere",
  newLedger: NO_LEDGER,
  route: (path, body) => (path === "/cohere/v1/chat" ? { stream: body.stream === true } : undefined),
  validate: cohereError,
  lastTurn,
  json: (reply, { nextId }) => response(reply, nextId()),
  stream: (reply, { nextId }) => {
    const id = nextId();
    const frames = [
      line({ is_finished: false, event_type: "stream-start", generation_id: `gen-${id}` }),
      ...splitText(reply.text ?? "").map((text) => line({ is_finished: false, event_type: "text-generation", text })),
      line({ is_finished: true, event_type: "stream-end", finish_reason: "COMPLETE", response: response(reply, id) }),
    ];
    return { contentType: "application/stream+json", frames, cuts: { text: 2 } };
  },
};
