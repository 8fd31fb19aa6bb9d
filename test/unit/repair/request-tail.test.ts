// The "request" tail: the history as a model call is about to send it, which ends in the new input or in tool results.
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import type { ProviderChoice } from "../../../src/repair/rules/provider-patterns.js";
import { expectAcceptedByAllProviders, expectAcceptedUnder } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const request = (messages: unknown[], provider?: ProviderChoice) =>
  repairMessages(messages, { tail: "request", provider });

describe('repairMessages with tail "request"', () => {
  it.each([
    ["the new input", [human("h1"), reply("a1"), human("h2")]],
    ["tool results", [human("h1"), calls("a1", "c1", "c2"), result("t1", "c1"), result("t2", "c2")]],
    ["a plain reply", [human("h1"), reply("a1")]],
  ])("returns a history that ends in %s as the same array", (_, history) => {
    const { messages, repairs } = request(history);
    expect(messages).toBe(history);
    expect(repairs).toEqual([]);
  });

  it("bridges an unanswered HumanMessage before the new input for Bedrock, and adds nothing after it", () => {
    const broken = [human("h1"), human("h2")];
    expect(providerError("bedrock", broken)).toMatch(/alternate/);
    expect(request(broken, "openai").messages).toBe(broken);
    const { messages, repairs } = request(broken, "bedrock");
    expect(shape(messages)).toEqual(["human:h1", "ai:sanitizer-reply-h1", "human:h2"]);
    expect(repairs.map((r) => r.code)).toEqual(["A"]);
    expectAcceptedUnder("bedrock", messages);
  });

  it("closes tool results followed by the new input for Mistral, but not the trailing ones", () => {
    const broken = [
      human("h1"),
      calls("a1", "c1"),
      result("t1", "c1"),
      human("h2"),
      calls("a2", "c2"),
      result("t2", "c2"),
    ];
    expect(providerError("mistral", broken)).toBe("Unexpected role 'user' after role 'tool'");
    expect(request(broken).messages).toBe(broken);
    const { messages } = request(broken, "mistral");
    expect(shape(messages)).toEqual([
      "human:h1",
      "ai:a1",
      "tool:t1>c1",
      "ai:sanitizer-reply-h1",
      "human:h2",
      "ai:a2",
      "tool:t2>c2",
    ]);
    expectAcceptedByAllProviders(messages);
  });

  it("answers the unanswered sibling of a parallel call in the last turn (HITL rejecting one of two)", () => {
    const broken = [human("h1"), calls("a1", "c1", "c2"), result("t2", "c2")];
    expect(providerError("openai", broken)).toMatch(/must be followed by tool messages/);
    const { messages, repairs } = request(broken);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:sanitizer-result-a1-c1>c1", "tool:t2>c2"]);
    expect(repairs.map((r) => [r.code, r.action])).toEqual([["B2", "inserted"]]);
    expectAcceptedByAllProviders(messages);
  });

  it("drops a result cut from its call by a trim, opens the reply it leaves first, and keeps the input last", () => {
    const trimmed = [result("t1", "c1"), reply("a2"), human("h2")];
    expect(providerError("anthropic", trimmed)).toMatch(/unexpected `tool_use_id`/);
    const { messages, repairs } = request(trimmed);
    expect(shape(messages)).toEqual(["human:sanitizer-opening-a2", "ai:a2", "human:h2"]);
    expect(repairs.map((r) => [r.code, r.action])).toEqual([
      ["D", "removed"],
      ["J", "inserted"],
    ]);
  });

  it("uses recovered results for the last turn as the repaired tail does", () => {
    const recovered = result("t1", "c1");
    const { messages, repairs } = repairMessages([human("h1"), calls("a1", "c1")], {
      tail: "request",
      recoveredResults: [recovered],
    });
    expect(messages.at(-1)).toBe(recovered);
    expect(repairs.map((r) => r.code)).toEqual(["N"]);
  });
});
