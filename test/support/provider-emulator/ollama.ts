/**
 * Ollama's chat API (`POST /ollama/api/chat`; ChatOllama always streams, as newline-delimited JSON).
 *
 * History rules: none. Ollama renders whatever messages it gets through the model's template
 * (https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion): a call with no result, two
 * turns of one role, a request ending on the assistant all reach the model. What the sanitizer repairs for every
 * provider still goes, as for every provider; nothing here is rejected.
 */
import type { LastTurn } from "./script.js";
import { argsText, splitText } from "./script.js";
import { NO_LEDGER, type ProviderApi } from "./server.js";

const MODEL = "llama3.2";

interface OllamaMessage {
  role: string;
  content?: string;
}

const line = (data: unknown) => `${JSON.stringify(data)}\n`;
const created_at = "2026-01-01T00:00:00Z";

function lastTurn(body: Record<string, unknown>): LastTurn {
  const last = ((body.messages ?? []) as OllamaMessage[]).at(-1);
  if (!last) return { role: "none", text: "" };
  const role = last.role === "user" || last.role === "tool" || last.role === "assistant" ? last.role : "none";
  return { role, text: last.content ?? "" };
}

export const ollama: ProviderApi = {
  name: "ollama",
  newLedger: NO_LEDGER,
  route: (path, body) => (path === "/ollama/api/chat" ? { stream: body.stream !== false } : undefined),
  validate: () => undefined,
  lastTurn,
  json: (reply) => ({
    model: MODEL,
    created_at,
    message: { role: "assistant", content: reply.text ?? "" },
    done: true,
    done_reason: "stop",
  }),
  stream: (reply) => {
    const calls = (reply.calls ?? []).map((call) => ({
      function: { name: call.name, arguments: JSON.parse(argsText(call)) as unknown },
    }));
    const frames = [
      ...splitText(reply.text ?? "").map((word) =>
        line({ model: MODEL, created_at, message: { role: "assistant", content: word }, done: false }),
      ),
      ...(calls.length > 0
        ? [
            line({
              model: MODEL,
              created_at,
              message: { role: "assistant", content: "", tool_calls: calls },
              done: false,
            }),
          ]
        : []),
      line({
        model: MODEL,
        created_at,
        message: { role: "assistant", content: "" },
        done: true,
        done_reason: "stop",
        prompt_eval_count: 1,
        eval_count: 1,
      }),
    ];
    return { contentType: "application/x-ndjson", frames, cuts: { text: 1 } };
  },
};
