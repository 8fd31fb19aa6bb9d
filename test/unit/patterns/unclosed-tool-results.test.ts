// Pattern C: a run of ToolMessages not closed by an AIMessage (cancelled after tools, before the LLM).
// Leftovers: a turn the repair answered, or a broken run's end. Role order: real results before a user turn.
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders, expectAcceptedUnder } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern C: tool results not closed by an AIMessage", () => {
  it("leaves real results before a user turn by default: a tool that ends the run leaves them so", () => {
    const returnDirect = [human("h1"), calls("a1", "c1"), result("t1", "c1"), human("h2"), reply("a2")];
    expectAcceptedUnder("openai", returnDirect);
    expect(repairMessages(returnDirect).messages).toBe(returnDirect);
    expect(repairMessages(returnDirect, { provider: "gemini" }).messages).toBe(returnDirect);
  });

  it("closes a run followed by a HumanMessage for Mistral and Bedrock, which reject it", () => {
    const broken = [human("h1"), calls("a1", "c1"), result("t1", "c1"), human("h2"), reply("a2")];
    expect(providerError("mistral", broken)).toBe("Unexpected role 'user' after role 'tool'");
    expect(providerError("bedrock", broken)).toMatch(/alternate/);

    const { messages, repairs } = repairMessages(broken, { provider: "mistral" });
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:t1>c1", "ai:sanitizer-reply-h1", "human:h2", "ai:a2"]);
    expect(repairs).toEqual([
      expect.objectContaining({ code: "C", kind: "unclosed-tool-results", action: "inserted", index: 3 }),
    ]);
    expect(messages[3]).toMatchObject({ content: "[No reply was recorded after these tool results.]" });
    expectAcceptedUnder("mistral", messages);
    expectAcceptedByAllProviders(repairMessages(broken, { provider: "strictest" }).messages);
  });

  it("closes the results of a turn a broken run left unanswered, for every provider", () => {
    const broken = [human("h1"), calls("a1", "c1", "c2"), result("t1", "c1"), human("h2"), reply("a2")];
    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual([
      "human:h1",
      "ai:a1",
      "tool:t1>c1",
      "tool:sanitizer-result-a1-c2>c2",
      "ai:sanitizer-reply-h1",
      "human:h2",
      "ai:a2",
    ]);
    expect(repairs.map((r) => r.code)).toEqual(["B2", "C"]);
    expectAcceptedByAllProviders(messages);
  });

  it("closes a trailing run when the tail is repaired, and leaves it when preserved or a finished run's", () => {
    const input = [human("h1"), calls("a1", "c1", "c2"), result("t1", "c1"), result("t2", "c2")];
    expect(shape(repairMessages(input).messages).at(-1)).toBe("ai:sanitizer-reply-h1");
    expect(repairMessages(input, { tail: "resumable" }).messages).toBe(input);
    expect(repairMessages(input, { tail: "finished" }).messages).toBe(input);
    expect(shape(repairMessages(input, { tail: "finished", provider: "bedrock" }).messages).at(-1)).toBe(
      "ai:sanitizer-reply-h1",
    );
  });
});
