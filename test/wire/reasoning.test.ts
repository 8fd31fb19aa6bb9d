// Reasoning survives the repair and reaches the wire: a turn that thought, called a tool and was cancelled while
// the tool ran is repaired by the sanitizer, and the next request still carries the signed thinking block
// (Anthropic), the reasoning item (Responses API), the signed thought and call parts (Gemini) and the signed
// reasoning content (Bedrock), as the provider requires to continue a turn that thought.
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { chatModel, startEmulator, type Client, type ProviderEmulator } from "../support/provider-emulator/index.js";
import { FIRST_QUESTION } from "../support/scenarios.js";
import { FINAL_ANSWER, NEXT_QUESTION, cancelFirstTurn, runTurn } from "./agents.js";

/** What each client's next request must carry: the signature the emulator gave the reasoning, as the client sends it. */
const SIGNED: Partial<Record<Client, RegExp[]>> = {
  anthropic: [/"type":"thinking","thinking":"Checking the forecast.","signature":"sig-\d+"/],
  "openai-responses": [/"type":"reasoning","id":"rs_\d+".*"encrypted_content":"enc-\d+"/],
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
