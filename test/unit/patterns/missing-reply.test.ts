// Pattern A: Human → Human, the assistant's reply is missing (run cancelled during the LLM node).
// Leftovers: a broken run's trailing user turn, closed when new input follows. Role order: two stored user turns.
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders, expectAcceptedUnder } from "../../support/oracle/expect-accepted.js";
import { human, reply, shape, system } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern A: two HumanMessages in a row", () => {
  it("leaves two stored user turns as they are by default: an app may send them on purpose, and OpenAI takes them", () => {
    const documentThenQuestion = [human("h1"), human("h2"), reply("a2")];
    expectAcceptedUnder("openai", documentThenQuestion);
    expectAcceptedUnder("anthropic", documentThenQuestion);
    expect(repairMessages(documentThenQuestion).messages).toBe(documentThenQuestion);
    expect(repairMessages(documentThenQuestion, { provider: "mistral" }).messages).toBe(documentThenQuestion);
  });

  it("inserts a marker AIMessage between them for Bedrock and Gemini, which reject them", () => {
    const broken = [human("h1"), human("h2"), reply("a2")];
    expect(providerError("bedrock", broken)).toMatch(/must alternate between user and assistant/);
    expect(providerError("gemini", broken)).toMatch(/alternate/);

    const { messages, repairs } = repairMessages(broken, { provider: "bedrock" });

    expect(shape(messages)).toEqual(["human:h1", "ai:sanitizer-reply-h1", "human:h2", "ai:a2"]);
    expect(isSyntheticMessage(messages[1])).toBe(true);
    expect(repairs).toEqual([
      expect.objectContaining({
        code: "A",
        kind: "missing-reply",
        action: "inserted",
        index: 1,
        messageId: "sanitizer-reply-h1",
      }),
    ]);
    expectAcceptedUnder("bedrock", messages);
    expect(repairMessages(broken, { provider: "gemini" }).messages).toEqual(messages);
    expectAcceptedByAllProviders(repairMessages(broken, { provider: "strictest" }).messages);
  });

  it("bridges a run of three, once per gap", () => {
    const { messages } = repairMessages([human("h1"), human("h2"), human("h3"), reply("a")], { provider: "gemini" });
    expect(shape(messages)).toEqual([
      "human:h1",
      "ai:sanitizer-reply-h1",
      "human:h2",
      "ai:sanitizer-reply-h2",
      "human:h3",
      "ai:a",
    ]);
  });

  it("closes a trailing HumanMessage when the tail is repaired, so the next user turn is valid", () => {
    const { messages, repairs } = repairMessages([system("s"), human("h1")]);
    expect(shape(messages)).toEqual(["system:s", "human:h1", "ai:sanitizer-reply-h1"]);
    expect(repairs.map((r) => r.code)).toEqual(["A"]);
    expectAcceptedByAllProviders([...messages, human("next")]);
  });

  it("closes a broken run's trailing user turns once, after the last: the turns before it are role order", () => {
    const input = [human("h1"), reply("a1"), human("h2"), human("h3")];
    const { messages, repairs } = repairMessages(input);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "human:h2", "human:h3", "ai:sanitizer-reply-h3"]);
    expect(repairs.map((r) => r.code)).toEqual(["A"]);
    expectAcceptedUnder("openai", [...messages, human("next")]);
    expectAcceptedByAllProviders([...repairMessages(input, { provider: "strictest" }).messages, human("next")]);
  });

  it("leaves the user turn a finished run ended on for new input, but under Bedrock's rules", () => {
    const input = [human("h1"), reply("a1"), human("h2")];
    expect(repairMessages(input, { tail: "finished" }).messages).toBe(input);
    const { messages } = repairMessages(input, { tail: "finished", provider: "bedrock" });
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "human:h2", "ai:sanitizer-reply-h2"]);
  });

  it("leaves a trailing HumanMessage alone when the tail is preserved", () => {
    const input = [human("h1"), reply("a1"), human("h2")];
    expect(repairMessages(input, { tail: "resumable" }).messages).toBe(input);
  });

  it("uses a SystemMessage bridge only when asked, which Anthropic and Gemini reject mid-history", () => {
    const { messages } = repairMessages([human("h1"), human("h2"), reply("a")], {
      bridgeRole: "system",
      provider: "strictest",
    });
    expect(shape(messages)).toEqual(["human:h1", "system:sanitizer-reply-h1", "human:h2", "ai:a"]);
    expect(providerError("anthropic", messages)).toBe(
      "System messages are only permitted as the first passed message.",
    );
  });

  it("reads a SystemMessage bridge it inserted as the reply it marks: repairing again changes nothing", () => {
    for (const input of [[human("h1")], [human("h1"), human("h2"), reply("a")]]) {
      const once = repairMessages(input, { bridgeRole: "system", provider: "gemini" });
      expect(once.repairs.map((r) => r.code)).toEqual(["A"]);
      const twice = repairMessages(once.messages, { bridgeRole: "system", provider: "gemini" });
      expect(twice.messages).toBe(once.messages);
    }
  });

  it("writes the marker in the chosen language", () => {
    const ko = repairMessages([human("h1")], { markers: "ko" }).messages[1] as { content: string };
    expect(ko.content).toBe("[직전 turn 응답 중단됨, 함께 종합해 답하라]");
    const custom = repairMessages([human("h1")], { markers: { missingReply: "(no answer)" } }).messages[1] as {
      content: string;
    };
    expect(custom.content).toBe("(no answer)");
  });
});
