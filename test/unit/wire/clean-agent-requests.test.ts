// Our first promise, through createAgent and sanitizeMessagesMiddleware() with no option: a clean conversation with
// tools reaches the model exactly as it does without the middleware, for every real client on the emulator and for
// a custom chat model the middleware cannot place. Shapes apps store on purpose (a supervisor's handoff, a summary
// kept as a SystemMessage) go through unchanged wherever the provider takes them; where the provider rejects them,
// raw is rejected and the middleware repairs them for it. ChatVertexAI reaches the emulator over HTTPS, with nothing sent
// anywhere else (`vertexModel` in the emulator's clients tells how); ChatOpenAI for Perplexity is pointed at
// https://api.perplexity.ai, as apps point it, and its fetch goes to the emulator.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sanitizeMessagesMiddleware, type ModelRequestRepairEvent } from "../../../src/middleware/index.js";
import { canonicalIds, plain } from "../../support/comparisons/conversation-record.js";
import {
  CLIENTS,
  MORE_CLIENTS,
  chatModel,
  startEmulator,
  type AnyClient,
  type LastTurn,
} from "../../support/provider-emulator/index.js";

const QUESTIONS = ["What is the weather in Paris?", "And in Seoul?", "And in Lyon?"] as const;
const CITY: Record<string, string> = { [QUESTIONS[0]]: "Paris", [QUESTIONS[1]]: "Seoul", [QUESTIONS[2]]: "Lyon" };
const ANSWER = "Here you are: it is mild.";

/** The model's side of each turn: one call for the question, then an answer with its result. */
function answer(last: LastTurn) {
  const city = last.role === "user" ? CITY[last.text] : undefined;
  if (city !== undefined) return { text: "Let me check. ", calls: [{ name: "search", args: { city } }] };
  return { text: last.role === "tool" ? ANSWER : "Hello!" };
}

const search = tool(async ({ city }) => `${city}: 15°C`, {
  name: "search",
  description: "Weather in a city",
  schema: z.object({ city: z.string() }),
});

/** A chat model of the app's own, as a new user writes one: a `BaseChatModel` subclass no middleware knows. */
class HouseChatModel extends BaseChatModel {
  readonly requests: unknown[] = [];
  private calls = 0;
  _llmType() {
    return "house-model";
  }
  override bindTools() {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.requests.push(plain(messages));
    const last = messages.at(-1)!;
    const role = last.type === "human" ? "user" : last.type === "tool" ? "tool" : "assistant";
    const reply = answer({ role, text: last.text });
    const tool_calls = (reply.calls ?? []).map((call) => ({
      ...call,
      id: `call_${++this.calls}`,
      type: "tool_call" as const,
    }));
    const message = new AIMessage({ content: reply.text, tool_calls });
    return { generations: [{ text: reply.text, message }] };
  }
}

/** What the conversation's first input holds before its first question: nothing, or a shape an app stores. */
const OPENINGS: Record<string, BaseMessage[]> = {
  "three turns with tools": [],
  "after a supervisor's handoff (two replies in a row)": [
    new HumanMessage("Who is on call today?"),
    new AIMessage({ content: "Alice is on call.", name: "lookup_agent" }),
    new AIMessage({ content: "Alice is on call today.", name: "supervisor" }),
  ],
  "after a summary kept as a SystemMessage": [
    new HumanMessage("Hi"),
    new AIMessage("Hello! How can I help?"),
    new SystemMessage("Summary of the conversation so far: the user greeted the assistant."),
  ],
};

/**
 * The clients whose provider rejects an opening (as the emulator models it; see test/unit/wire/emulator-rules.test.ts),
 * and so is no clean conversation for them. Every other client takes it as it is.
 */
const REJECTED_BY: Record<string, readonly AnyClient[]> = {
  "three turns with tools": [],
  "after a supervisor's handoff (two replies in a row)": [
    "anthropic",
    "gemini",
    "bedrock",
    "deepseek",
    "perplexity",
    "vertex",
    "vertex-claude",
  ],
  // ChatGoogleGenerativeAI and ChatVertexAI on Gemini throw on it before sending; Bedrock's client, and ChatVertexAI on
  // Claude, take every SystemMessage into `system`.
  "after a summary kept as a SystemMessage": ["anthropic", "gemini", "mistral", "perplexity", "vertex"],
};

type Target = AnyClient | "a custom BaseChatModel";
const TARGETS: readonly Target[] = [...CLIENTS, ...MORE_CLIENTS, "a custom BaseChatModel"];

/**
 * The three turns on a fresh thread of a createAgent agent on `target`, with or without the middleware: every
 * request the model received (on the wire for a real client, as messages for the custom one) with ids made
 * canonical, the repairs the middleware reported, and the error the run ended with, if any.
 */
async function converse(target: Target, opening: BaseMessage[], middleware: boolean) {
  // A fresh emulator per conversation: its ids count from the start, so two conversations compare.
  const emulator = await startEmulator();
  const repairs: ModelRequestRepairEvent[] = [];
  try {
    emulator.script = answer;
    const house = target === "a custom BaseChatModel" ? new HouseChatModel({}) : undefined;
    const agent = createAgent({
      model: house ?? chatModel(target as AnyClient, emulator),
      tools: [search],
      checkpointer: new MemorySaver(),
      middleware: middleware ? [sanitizeMessagesMiddleware({ onRepair: (event) => repairs.push(event) })] : [],
    });
    const config = { configurable: { thread_id: "clean" } };
    let error: unknown;
    try {
      for (const [i, question] of QUESTIONS.entries()) {
        const input = [...(i === 0 ? opening : []), new HumanMessage(question)];
        const { messages } = await agent.invoke({ messages: input }, config);
        expect(messages.at(-1)!.text).toBe(ANSWER);
      }
    } catch (e) {
      error = e;
    }
    const requests = house?.requests ?? emulator.requests.map(({ path, body, status }) => ({ path, body, status }));
    return { requests: canonicalIds(requests) as unknown[], repairs, error };
  } finally {
    await emulator.close();
  }
}

describe("createAgent with sanitizeMessagesMiddleware(), no option given", () => {
  describe.each(Object.entries(OPENINGS))("%s", (name, opening) => {
    it.each(TARGETS)("%s", async (target) => {
      const raw = await converse(target, opening, false);
      const sanitized = await converse(target, opening, true);
      if (REJECTED_BY[name]!.includes(target as AnyClient)) {
        // Not a clean conversation for this provider: raw fails, and the middleware repairs it for the provider.
        expect(raw.error).toBeDefined();
        expect(sanitized.error).toBeUndefined();
        return;
      }
      expect(raw.error).toBeUndefined();
      expect(sanitized.error).toBeUndefined();
      // Three turns, each a question and an answer after the tool's result.
      expect(raw.requests).toHaveLength(6);
      expect(sanitized.requests).toEqual(raw.requests);
      expect(sanitized.repairs).toEqual([]);
    });
  });
});
