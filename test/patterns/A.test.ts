// Pattern A: Human → Human, the assistant's reply is missing (run cancelled during the LLM node).
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, repairMessages } from "../../src/index.js";
import { expectAcceptedByAllProviders } from "../support/expect-accepted.js";
import { human, reply, shape, system } from "../support/messages.js";
import { providerError } from "../support/provider-rules.js";

describe("pattern A: two HumanMessages in a row", () => {
  it("inserts a marker AIMessage between them, which Bedrock and Gemini then accept", () => {
    const broken = [human("h1"), human("h2"), reply("a2")];
    expect(providerError("bedrock", broken)).toMatch(/must alternate between user and assistant/);
    expect(providerError("gemini", broken)).toMatch(/alternate/);

    const { messages, repairs } = repairMessages(broken);

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
    expectAcceptedByAllProviders(messages);
  });

  it("bridges a run of three, once per gap", () => {
    const { messages } = repairMessages([human("h1"), human("h2"), human("h3"), reply("a")]);
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

  it("leaves a trailing HumanMessage alone when the tail is preserved", () => {
    const input = [human("h1"), reply("a1"), human("h2")];
    expect(repairMessages(input, { tail: "preserve" }).messages).toBe(input);
  });

  it("uses a SystemMessage bridge only when asked, which Anthropic and Gemini reject mid-history", () => {
    const { messages } = repairMessages([human("h1"), human("h2"), reply("a")], { bridgeRole: "system" });
    expect(shape(messages)).toEqual(["human:h1", "system:sanitizer-reply-h1", "human:h2", "ai:a"]);
    expect(providerError("anthropic", messages)).toBe(
      "System messages are only permitted as the first passed message.",
    );
  });

  it("writes the marker in the chosen language", () => {
    const ko = repairMessages([human("h1"), human("h2")], { markers: "ko" }).messages[1] as { content: string };
    expect(ko.content).toBe("[직전 turn 응답 중단됨, 함께 종합해 답하라]");
    const custom = repairMessages([human("h1"), human("h2")], { markers: { missingReply: "(no answer)" } })
      .messages[1] as { content: string };
    expect(custom.content).toBe("(no answer)");
  });
});
