// The cancellation matrix through the clients of the providers added after the first six (Groq, Ollama, Cohere,
// DeepSeek, xAI, Cerebras, ChatOpenAI on OpenRouter and on Perplexity, ChatVertexAI on Gemini and on Claude): a turn
// cancelled while the model streams, while a tool runs, or after one of two parallel tools, then a new message. Raw,
// it is rejected where that provider rejects; through the SanitizingCheckpointer, and through
// sanitizeMessagesMiddleware() on createAgent, it is accepted.
//
// ChatVertexAI reaches the emulator over HTTPS, as it builds its URLs; how it is pointed there, with nothing sent
// anywhere else, is told at `vertexModel` in the emulator's clients.
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BaseMessage } from "@langchain/core/messages";
import { repairMessages, SanitizingCheckpointer } from "../../../src/index.js";
import {
  MORE_CLIENTS,
  chatModel,
  startEmulator,
  type ProviderEmulator,
  type Script,
} from "../../support/provider-emulator/index.js";
import { FIRST_QUESTION } from "../../support/graphs/scenarios.js";
import {
  AGENT_KINDS,
  FINAL_ANSWER,
  NEXT_QUESTION,
  agentScript,
  answerNext,
  cancelFirstTurn,
  runTurn,
  storeFinishedRun,
} from "../../support/graphs/wire-agents.js";
import { calls, human, reply, result, system } from "../../support/generators/messages.js";

type MoreClient = (typeof MORE_CLIENTS)[number];
type Stop = "during-llm" | "during-tools" | "after-one-of-two-parallel-tools" | "not cancelled";
const STOPS: readonly Stop[] = ["during-llm", "during-tools", "after-one-of-two-parallel-tools", "not cancelled"];

/** The OpenAI-compatible APIs: OpenAI's rules on calls and results. Ollama checks nothing of a history. */
const COMPATIBLE: MoreClient[] = ["groq", "deepseek", "xai", "cerebras", "openrouter", "perplexity"];
/** Who wants every call answered: the OpenAI-compatible APIs, Cohere, and Vertex (Gemini's and Claude's rules). */
const ANSWER_EVERY_CALL: MoreClient[] = [...COMPATIBLE, "cohere", "vertex", "vertex-claude"];

/** Who rejects the next turn on the raw saver. */
const RAW_REJECTED_BY: Record<Stop, MoreClient[]> = {
  // The run stored the question alone: two user turns in a row, which DeepSeek, Perplexity and Gemini refuse.
  "during-llm": ["deepseek", "perplexity", "vertex"],
  "during-tools": ANSWER_EVERY_CALL,
  "after-one-of-two-parallel-tools": ANSWER_EVERY_CALL,
  "not cancelled": [],
};

let emulator: ProviderEmulator;
beforeAll(async () => (emulator = await startEmulator()));
afterAll(() => emulator.close());

/**
 * ChatCohere streams a reply's calls as `tool_call_chunks` whose `args` are objects, not JSON text, so a streamed
 * reply is stored without its calls (upstream). ChatVertexAI on Gemini makes a message chunk of the first part of
 * each streamed response only (@langchain/google-common's `partToMessageChunk(responseToParts(response)[0])`), so
 * the calls that come with a reply's last words are lost (upstream). Their tools run only when the reply comes whole.
 */
const CALLS_ONLY_UNSTREAMED: readonly MoreClient[] = ["cohere", "vertex"];

/**
 * ChatVertexAI sends each ToolMessage to Claude as a user message of its own, so the results of a reply's two calls
 * are split, which Anthropic's Messages API rejects on a clean run too (upstream; see the test below). Its turns
 * call one tool, and the cancel after one of two parallel tools has its own test.
 */
const ONE_CALL_A_TURN: readonly MoreClient[] = ["vertex-claude"];

/** The emulator's side of the agent for `client` (see {@link ONE_CALL_A_TURN}). */
function scriptFor(client: MoreClient, hangOnQuestion = false): Script {
  const script = agentScript(hangOnQuestion);
  if (!ONE_CALL_A_TURN.includes(client)) return script;
  return (last) => {
    const reply = script(last);
    return reply.calls ? { ...reply, calls: reply.calls.slice(0, 1) } : reply;
  };
}

/** The first turn on `saver`, cancelled at `stop` (or run to the end). */
async function firstTurn(kind: (typeof AGENT_KINDS)[number], client: MoreClient, saver: MemorySaver, stop: Stop) {
  const thread = `${kind}-${client}-${stop}`;
  const model = chatModel(client, emulator);
  if (stop !== "during-llm" && CALLS_ONLY_UNSTREAMED.includes(client)) model.disableStreaming = true;
  emulator.script = scriptFor(client, stop === "during-llm");
  if (stop === "not cancelled") await runTurn(kind, model, saver, thread, FIRST_QUESTION);
  else expect(await cancelFirstTurn(kind, model, saver, thread, stop)).toBeInstanceOf(Error);
  emulator.script = scriptFor(client);
  return { model, thread };
}

// Two calls answered, each result sent by ChatVertexAI as a user message of its own: Anthropic wants every result of
// a reply in the next message, so the turn is rejected on a clean run, raw and sanitized alike; the repair leaves a
// well-formed history as it is.
it("Claude on Vertex: ChatVertexAI splits the results of two calls into two user messages, rejected raw and sanitized alike (upstream)", async () => {
  const split = "`tool_use` ids were found without `tool_result` blocks immediately after";
  const model = chatModel("vertex-claude", emulator);
  emulator.script = agentScript();
  // The client's error names the status only: the provider's text is read where the emulator recorded it.
  await expect(runTurn("createAgent", model, new MemorySaver(), "split-raw", FIRST_QUESTION)).rejects.toThrow("400");
  expect(emulator.last("vertex-claude").rejected).toContain(split);
  const sanitized = new SanitizingCheckpointer(new MemorySaver());
  await expect(runTurn("createAgent", model, sanitized, "split", FIRST_QUESTION)).rejects.toThrow("400");
  expect(emulator.last("vertex-claude").rejected).toContain(split);
  // After one of two parallel tools: repaired (the cancelled call answered), and still split on the wire.
  const saver = new MemorySaver();
  expect(
    await cancelFirstTurn("createAgent", model, saver, "parallel", "after-one-of-two-parallel-tools"),
  ).toBeInstanceOf(Error);
  expect(await answerNext(emulator, "vertex-claude", model, saver, "parallel", "raw")).toBe("rejected");
  expect(await answerNext(emulator, "vertex-claude", model, saver, "parallel", { sanitizeGraph: {} })).toBe("rejected");
  expect(emulator.last("vertex-claude").rejected).toContain(split);
  expect(await answerNext(emulator, "vertex-claude", model, saver, "parallel", "middleware")).toBe("rejected");
});

// DeepSeek's thinking mode wants each reply with calls sent back with its `reasoning_content`. ChatDeepSeek keeps it
// in `additional_kwargs` but sends none (upstream): a tool-call turn is rejected however the history is repaired, and
// the repair leaves that field as stored.
it("DeepSeek in thinking mode: ChatDeepSeek sends no reasoning_content back, raw and sanitized alike (upstream)", async () => {
  const model = chatModel("deepseek", emulator, "deepseek-reasoner");
  emulator.script = agentScript();
  const turn = runTurn("createAgent", model, new SanitizingCheckpointer(new MemorySaver()), "thinking", FIRST_QUESTION);
  await expect(turn).rejects.toThrow("Missing `reasoning_content` field in the assistant message at message index 1");
});

// A run that ended on its tool's result (a tool that returns directly), then the next question: ChatCohere sends the
// result last in the chat history and the question as the message, which Cohere's v1 chat refuses.
it("Cohere: a user turn right after tool results, rejected raw, answered under its rules and through the middleware", async () => {
  const next = async (way: Parameters<typeof answerNext>[5]) => {
    const saver = new MemorySaver();
    await storeFinishedRun(saver, "t", [human("h1"), calls("a1", "c1"), result("t1", "c1")]);
    return answerNext(emulator, "cohere", chatModel("cohere", emulator), saver, "t", way);
  };
  emulator.script = agentScript();
  expect(await next("raw")).toBe("rejected");
  expect(emulator.last("cohere").rejected).toContain("cannot specify message if the last entry in chat history");
  expect(await next({ sanitizeGraph: {} })).toBe("rejected");
  expect(await next({ sanitizeGraph: { provider: "cohere" } })).toBe("answered");
  expect(await next("middleware")).toBe("answered");
});

// Each of Perplexity's rules, through ChatOpenAI pointed at it: the raw history is rejected with Perplexity's text,
// still rejected when repaired under OpenAI's rules (which Perplexity's are beyond), and accepted when repaired under
// Perplexity's (the tail as the request's: the new message already on it).
describe("Perplexity: each rule rejects the raw history, and the repair under its rules is accepted", () => {
  const ALTERNATE = "user or tool message(s) should alternate with assistant message(s)";
  const HISTORIES: Record<string, [BaseMessage[], string]> = {
    "A: two user turns in a row": [[human("h1"), human("h2")], ALTERNATE],
    "C: a user turn right after tool results": [
      [human("h1"), calls("a1", "c1"), result("t1", "c1"), human("h2")],
      ALTERNATE,
    ],
    "J: a history that starts with a reply": [[reply("a1"), human("h1")], ALTERNATE],
    "K: two replies in a row": [[human("h1"), reply("a1"), reply("a2"), human("h2")], ALTERNATE],
    "Y: a SystemMessage mid-history": [[human("h1"), reply("a1"), system("s1"), human("h2")], ALTERNATE],
    "Z: a request that ends on a reply": [[human("h1"), reply("a1")], "Last message must have role `user`."],
  };
  it.each(Object.entries(HISTORIES))("%s", async (_rule, [history, text]) => {
    const model = chatModel("perplexity", emulator);
    emulator.script = agentScript();
    await expect(model.invoke(history)).rejects.toThrow(text);
    const repaired = (provider: "openai" | "perplexity") =>
      model.invoke(repairMessages(history, { provider, tail: "request" }).messages);
    await expect(repaired("openai")).rejects.toThrow(text);
    expect(emulator.last("perplexity").status).toBe(400);
    await expect(repaired("perplexity")).resolves.toBeDefined();
    expect(emulator.last("perplexity").status).toBe(200);
  });
});

describe.each(AGENT_KINDS)("%s", (kind) => {
  describe.each(STOPS)("first turn %s, then a new message", (stop) => {
    const clients = MORE_CLIENTS.filter(
      (client) => stop !== "after-one-of-two-parallel-tools" || !ONE_CALL_A_TURN.includes(client),
    );
    it.each(clients)(
      "%s: raw as the provider judges it; accepted through the checkpointer and through the middleware",
      async (client) => {
        const saver = new MemorySaver();
        const { model, thread } = await firstTurn(kind, client, saver, stop);
        const raw = runTurn(kind, model, saver, thread, NEXT_QUESTION);
        if (RAW_REJECTED_BY[stop].includes(client)) {
          await expect(raw).rejects.toThrow();
          expect(emulator.last(client).status).toBe(400);
        } else {
          expect((await raw).at(-1)?.text).toBe(FINAL_ANSWER);
        }

        const stored = new MemorySaver();
        const first = await firstTurn(kind, client, stored, stop);
        const sanitized = await runTurn(kind, model, new SanitizingCheckpointer(stored), first.thread, NEXT_QUESTION);
        expect(sanitized.at(-1)?.text).toBe(FINAL_ANSWER);
        expect(emulator.last(client).status).toBe(200);

        const onRaw = new MemorySaver();
        const again = await firstTurn(kind, client, onRaw, stop);
        expect(await answerNext(emulator, client, model, onRaw, again.thread, "middleware")).toBe("answered");
      },
    );
  });
});
