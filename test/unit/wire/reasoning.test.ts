// Reasoning survives the repair and reaches the wire: a turn that thought, called a tool and was cancelled while
// the tool ran is repaired by the sanitizer, and the next request still carries the signed thinking block
// (Anthropic), the reasoning item (Responses API), the signed thought and call parts (Gemini) and the signed
// reasoning content (Bedrock), as the provider requires to continue a turn that thought.
import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer, repairMessages } from "../../../src/index.js";
import { chatModel, startEmulator, type Client, type ProviderEmulator } from "../../support/provider-emulator/index.js";
import { FIRST_QUESTION } from "../../support/graphs/scenarios.js";
import { FINAL_ANSWER, NEXT_QUESTION, cancelFirstTurn, runTurn } from "../../support/graphs/wire-agents.js";

/** What each client's next request must carry: the signature the emulator gave the reasoning, as the client sends it. */
const SIGNED: Partial<Record<Client, RegExp[]>> = {
  anthropic: [/"type":"thinking","thinking":"Checking the forecast.","signature":"sig-\d+"/],
  // Kept by the API (the request did not ask for `encrypted_content`): sent by its id.
  "openai-responses": [/"type":"reasoning","id":"rs_\d+"/],
  gemini: [
    /"text":"Checking the forecast.","thought":true,"thoughtSignature":"sig-\d+"/,
    /"functionCall":\{[^}]*\}\},"thoughtSignature":"sig-\d+"/,
  ],
  bedrock: [/"reasoningContent":\{"reasoningText":\{"text":"Checking the forecast.","signature":"sig-\d+"\}\}/],
};

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
  // One call, so that Gemini's one-turn-per-result converter is not in the way.
  emulator.script = (last) =>
    last.role === "user" && last.text === FIRST_QUESTION
      ? {
          thinking: "Checking the forecast.",
          text: "Let me look. ",
          calls: [{ name: "search", args: { city: "Paris" } }],
        }
      : { text: FINAL_ANSWER };
});
afterAll(() => emulator.close());

it.each(Object.entries(SIGNED))(
  "%s: the repaired turn's signed reasoning reaches the wire",
  async (client, patterns) => {
    const model = chatModel(client as Client, emulator.url);
    const sanitized = new SanitizingCheckpointer(new MemorySaver());
    expect(await cancelFirstTurn("StateGraph + ToolNode", model, sanitized, "thread", "during-tools")).toBeInstanceOf(
      Error,
    );
    const messages = await runTurn("StateGraph + ToolNode", model, sanitized, "thread", NEXT_QUESTION);
    expect(messages.at(-1)?.text).toBe(FINAL_ANSWER);
    const sent = JSON.stringify(emulator.last(client).body);
    for (const pattern of patterns!) expect(sent).toMatch(pattern);
  },
);

// With thinking enabled, Anthropic wants the tool-use turn a request answers to start with its thinking block.
// A turn the repair rewrites (here its call id, pattern I) keeps its blocks in order: the copy goes through.
describe("a rewritten tool-use turn, with Anthropic's thinking enabled", () => {
  const thinkingModel = () =>
    new ChatAnthropic({
      model: "claude-sonnet-4-5",
      apiKey: "test-key",
      anthropicApiUrl: `${emulator.url}/anthropic`,
      maxRetries: 0,
      maxTokens: 2048,
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
  const turn = (blocks: object[]) => [
    new HumanMessage({ id: "h1", content: FIRST_QUESTION }),
    new AIMessage({
      id: "a1",
      content: blocks as never,
      tool_calls: [{ id: "call.1", name: "search", args: { city: "Paris" }, type: "tool_call" }],
    }),
    new ToolMessage({ id: "t1", content: "Paris: 15°C", tool_call_id: "call.1", name: "search" }),
  ];
  const text = { type: "text", text: "Let me look. " };
  const toolUse = { type: "tool_use", id: "call.1", name: "search", input: { city: "Paris" } };
  /** A thinking block the API signed for the model, as a first reply gave it. */
  let thinking: object;
  beforeAll(async () => {
    const first = await thinkingModel().invoke([new HumanMessage(FIRST_QUESTION)]);
    thinking = (first.content as { type: string }[]).find((block) => block.type === "thinking")!;
  });

  it("the emulator rejects the turn when a text block comes first", async () => {
    const history = repairMessages(turn([text, thinking, toolUse]), { tail: "request" }).messages;
    await expect(thinkingModel().invoke(history as BaseMessage[])).rejects.toThrow(
      /Expected .thinking. or .redacted_thinking./,
    );
  });

  it("the repaired copy keeps the thinking block first and is accepted", async () => {
    const { messages, repairs } = repairMessages(turn([thinking, text, toolUse]), { tail: "request" });
    expect(repairs.map((r) => r.code)).toContain("I");
    expect(((messages[1] as AIMessage).content as { type: string }[])[0]!.type).toBe("thinking");
    const reply = await thinkingModel().invoke(messages as BaseMessage[]);
    expect(reply.text).toBe(FINAL_ANSWER);
  });
});
