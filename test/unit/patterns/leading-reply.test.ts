// Pattern J: a history that starts with an AIMessage (its oldest messages trimmed or deleted, or a greeting).
// Role order: repaired only for the providers that reject it.
import { describe, expect, it } from "vitest";
import { MARKER_PRESETS, repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders, expectAcceptedUnder } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result, shape, system } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern J: a history that starts with a reply", () => {
  it("leaves an app's opening greeting as stored by default, which OpenAI and Mistral take", () => {
    const greeting = [system("s"), reply("a1", "Hi! How can I help?"), human("h2"), reply("a2")];
    expectAcceptedUnder("openai", greeting);
    expectAcceptedUnder("mistral", greeting);
    expect(repairMessages(greeting).messages).toBe(greeting);
    expect(repairMessages(greeting, { provider: "mistral" }).messages).toBe(greeting);
  });

  it("inserts a marker HumanMessage before the first reply, after the system prompt, for Bedrock", () => {
    const broken = [system("s"), reply("a1"), human("h2"), reply("a2")];
    expect(providerError("bedrock", broken)).toMatch(/must start with a user message/);

    const { messages, repairs } = repairMessages(broken, { provider: "bedrock" });
    expect(shape(messages)).toEqual(["system:s", "human:sanitizer-opening-a1", "ai:a1", "human:h2", "ai:a2"]);
    expect(repairs.map((r) => [r.code, r.kind, r.action, r.index])).toEqual([["J", "leading-reply", "inserted", 1]]);
    expect(messages[1]).toMatchObject({ content: MARKER_PRESETS.en.missingOpening });
    expectAcceptedByAllProviders(messages);
  });

  it("opens the reply a removed orphan result leaves first (D, then J), whatever the provider: the repair made it first", () => {
    const trimmed = [result("t0", "gone"), reply("a1"), human("h1"), reply("a2")];
    const { messages, repairs } = repairMessages(trimmed);
    expect(shape(messages)).toEqual(["human:sanitizer-opening-a1", "ai:a1", "human:h1", "ai:a2"]);
    expect(repairs.map((r) => r.code)).toEqual(["D", "J"]);
  });

  it("opens a preserved tail that starts the history, and leaves the tail as it is", () => {
    const tail = [calls("a1", "c1"), result("t1", "c1")];
    expect(repairMessages(tail, { tail: "resumable" }).messages).toBe(tail);
    const { messages } = repairMessages(tail, { tail: "resumable", provider: "gemini" });
    expect(shape(messages)).toEqual(["human:sanitizer-opening-a1", "ai:a1", "tool:t1>c1"]);
    expect(messages[1]).toBe(tail[0]);
    expect(messages[2]).toBe(tail[1]);
  });

  it("leaves a history that starts with the user alone", () => {
    const clean = [system("s"), human("h1"), reply("a1")];
    expect(repairMessages(clean).messages).toBe(clean);
  });
});
