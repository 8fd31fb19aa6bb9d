// A thinking block with no signature that Anthropic did not make (a Gemini thought carried over on a model switch,
// a block an app built) sent through the real ChatAnthropic: Anthropic rejects it, so wherever the history is known
// to go to Claude it is not on the wire; with no provider or model named it stays as stored.
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { human } from "../../support/generators/messages.js";
import { chatModel, startEmulator, type ProviderEmulator } from "../../support/provider-emulator/index.js";
import { agentScript, answerNext, storeFinishedRun, type NextWay } from "../../support/graphs/wire-agents.js";

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
  emulator.script = agentScript();
});
afterAll(() => emulator.close());

const thought = { type: "thinking", thinking: "The user greets me." };
const STORED: Record<string, BaseMessage> = {
  "a Gemini thought carried over on a model switch": new AIMessage({
    id: "a1",
    content: [thought, { type: "text", text: "Hello!" }] as never,
    response_metadata: { model_provider: "google-genai", model_name: "gemini-2.5-flash" },
  }),
  "a block an app built": new AIMessage({ id: "a1", content: [thought, { type: "text", text: "Hello!" }] as never }),
};

/** Whether the last request to Anthropic carried a thinking block. */
const sentThinking = () =>
  (emulator.last("anthropic").body.messages as { content: unknown }[]).some(
    (m) => Array.isArray(m.content) && m.content.some((b: { type?: string }) => b.type === "thinking"),
  );

describe.each(Object.entries(STORED))("a thinking block with no signature: %s", (_, reply) => {
  let thread = 0;
  const next = async (way: NextWay) => {
    const saver = new MemorySaver();
    const id = `t${++thread}`;
    await storeFinishedRun(saver, id, [human("h1", "Hi"), reply]);
    return answerNext(emulator, "anthropic", chatModel("anthropic", emulator.url), saver, id, way);
  };

  it("with no provider or model named it stays, and Claude rejects it", async () => {
    expect(await next("raw")).toBe("rejected");
    expect(emulator.last("anthropic").rejected).toContain("thinking.signature: Field required");
    expect(await next({ sanitizeGraph: {} })).toBe("rejected");
    expect(sentThinking()).toBe(true);
  });

  it.each<[string, NextWay]>([
    ['provider: "anthropic"', { sanitizeGraph: { provider: "anthropic" } }],
    ["a Claude model", { sanitizeGraph: { model: "claude-sonnet-4-5" } }],
    ["the middleware on ChatAnthropic", "middleware"],
  ])("sent to Claude under %s, it is not on the wire", async (_, way) => {
    expect(await next(way)).toBe("answered");
    expect(sentThinking()).toBe(false);
  });
});
