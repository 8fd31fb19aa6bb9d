// Pattern F: two results for one tool_call_id (a resumed tool after a naive repair, HITL double write).
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern F: duplicate results", () => {
  it("keeps the first real result and reports the second whole", () => {
    const second = result("t1b", "c1");
    const broken = [human("h"), calls("a1", "c1"), result("t1", "c1"), second, reply("a")];
    expect(providerError("openai", broken)).toMatch(/Duplicate value for 'tool_call_id'/);

    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual(["human:h", "ai:a1", "tool:t1>c1", "ai:a"]);
    expect(repairs).toEqual([
      {
        code: "F",
        kind: "duplicate-tool-result",
        action: "removed",
        index: 3,
        message: second,
        messageId: "t1b",
        toolCallId: "c1",
      },
    ]);
    expectAcceptedByAllProviders(messages);
  });

  it("prefers the real result over an earlier sanitizer placeholder (a tool resumed after a repair)", () => {
    const repaired = repairMessages([human("h"), calls("a1", "c1")]).messages;
    const resumed = [...repaired.slice(0, 3), result("real", "c1"), reply("a")];
    const { messages, repairs } = repairMessages(resumed);
    expect(shape(messages)).toEqual(["human:h", "ai:a1", "tool:real>c1", "ai:a"]);
    expect(repairs.map((r) => [r.code, r.action, r.messageId])).toEqual([["F", "removed", "sanitizer-result-a1-c1"]]);
  });
});
