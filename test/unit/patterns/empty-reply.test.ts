// Pattern H: an empty AIMessage (no text, no tool calls), e.g. a provider that returned nothing.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern H: empty AIMessage", () => {
  it.each([
    ["empty string", ""],
    ["whitespace", "  \n"],
    ["empty block list", []],
    ["empty text block", [{ type: "text", text: "" }]],
  ])("removes an AIMessage with %s content, then bridges the turn it leaves open", (_, content) => {
    const empty = new AIMessage({ id: "e", content: content as string });
    const broken = [human("h1"), empty, human("h2"), reply("a2")];
    expect(providerError("anthropic", broken)).toMatch(/non-empty content/);

    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual(["human:h1", "ai:sanitizer-reply-h1", "human:h2", "ai:a2"]);
    expect(repairs.map((r) => [r.code, r.action])).toEqual([
      ["H", "removed"],
      ["A", "inserted"],
    ]);
    expect(repairs[0]!.message).toBe(empty);
    expectAcceptedByAllProviders(messages);
  });

  it.each([
    ["a user turn", [human("h1"), reply("e", "")], ["human:h1", "ai:sanitizer-reply-h1"], "A"],
    [
      "tool results",
      [human("h1"), calls("a1", "c1"), result("t1", "c1"), new AIMessage({ id: "e", content: [] })],
      ["human:h1", "ai:a1", "tool:t1>c1", "ai:sanitizer-reply-h1"],
      "C",
    ],
  ] as const)(
    "closes the turn an empty reply after %s leaves open at the end, even when the tail is preserved",
    (_, broken, expected, kind) => {
      expect(providerError("bedrock", [...broken, human("h2")])).toBeDefined();
      const { messages, repairs } = repairMessages([...broken], { tail: "resumable" });
      expect(shape(messages)).toEqual(expected);
      expect(repairs.map((r) => r.code)).toEqual(["H", kind]);
      expectAcceptedByAllProviders([...messages, human("h2")]);
    },
  );

  it("keeps an AIMessage with empty text that carries tool calls, and one with non-text content", () => {
    const image = new AIMessage({ id: "img", content: [{ type: "image_url", image_url: "data:," }] });
    const input = [human("h"), calls("a1", "c1"), result("t1", "c1"), image];
    expect(repairMessages(input).messages).toBe(input);
  });
});
