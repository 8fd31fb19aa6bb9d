// Pattern Y: a SystemMessage after the conversation started (a summary), which Anthropic, Gemini and Mistral reject.
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedUnder } from "../../support/oracle/expect-accepted.js";
import { human, reply, shape, system } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const summary = () =>
  new SystemMessage({ id: "summary", content: "Summary of the conversation so far: the user asked about Paris." });

describe("pattern Y: a SystemMessage mid-history", () => {
  it.each([
    ["anthropic", /System messages are only permitted as the first passed message/],
    ["gemini", /System messages are only permitted as the first passed message/],
    ["mistral", /Unexpected role 'system' after role 'assistant'/],
  ] as const)("sends it as a user turn with its content and id under %s's rules", (provider, error) => {
    const stored = summary();
    const broken = [system("sys"), human("h1"), reply("a1"), stored, human("h2")];
    expect(providerError(provider, broken)).toMatch(error);

    const { messages, repairs } = repairMessages(broken, { provider, tail: "request" });
    const copy = messages[3] as HumanMessage;
    expect(copy).toBeInstanceOf(HumanMessage);
    expect(copy).toMatchObject({ id: "summary", content: stored.content });
    expect(repairs[0]).toMatchObject({
      code: "Y",
      kind: "system-message-mid-history",
      action: "rewritten",
      original: stored,
    });
    expect(messages[0]).toBe(broken[0]);
    expectAcceptedUnder(provider, messages);
  });

  it("bridges the user turn it becomes under Gemini's rules, where two user turns in a row break alternation", () => {
    const { messages } = repairMessages([system("sys"), human("h1"), reply("a1"), summary(), human("h2")], {
      provider: "gemini",
      tail: "request",
    });
    expect(shape(messages)).toEqual([
      "system:sys",
      "human:h1",
      "ai:a1",
      "human:summary",
      "ai:sanitizer-reply-summary",
      "human:h2",
    ]);
  });

  it("leaves leading system prompts alone, and a mid-history one for the providers that take it, and by default", () => {
    const history = [system("sys"), system("sys2"), human("h1"), reply("a1"), summary(), human("h2"), reply("a2")];
    expect(providerError("openai", history)).toBeUndefined();
    expect(providerError("bedrock", history)).toBeUndefined();
    for (const provider of [undefined, "openai", "bedrock"] as const) {
      expect(repairMessages(history, { provider }).messages).toBe(history);
    }
    const leading = [system("sys"), system("sys2"), human("h1"), reply("a1")];
    expect(repairMessages(leading, { provider: "strictest" }).messages).toBe(leading);
  });
});
