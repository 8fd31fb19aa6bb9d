// Pattern B2: parallel tool calls only partly answered.
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, result, shape } from "../../support/generators/messages.js";

describe("pattern B2: parallel calls partly answered", () => {
  it("keeps the real results and fills only the missing ones, in call order", () => {
    const { messages, repairs } = repairMessages([human("h1"), calls("a1", "c1", "c2", "c3"), result("t2", "c2")]);
    expect(shape(messages)).toEqual([
      "human:h1",
      "ai:a1",
      "tool:sanitizer-result-a1-c1>c1",
      "tool:t2>c2",
      "tool:sanitizer-result-a1-c3>c3",
      "ai:sanitizer-reply-h1",
    ]);
    expect(repairs.filter((r) => r.action === "inserted").map((r) => [r.code, r.toolCallId ?? null])).toEqual([
      ["B2", "c1"],
      ["B2", "c3"],
      ["C", null],
    ]);
    expectAcceptedByAllProviders([...messages, human("next")]);
  });

  it("leaves a partly answered turn alone when the tail is preserved (tools may still be running)", () => {
    const input = [human("h1"), calls("a1", "c1", "c2"), result("t1", "c1")];
    expect(repairMessages(input, { tail: "resumable" }).messages).toBe(input);
  });
});
