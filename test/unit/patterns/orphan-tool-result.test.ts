// Pattern D: an orphan ToolMessage whose call no earlier AIMessage made (trimming, summarization, edits).
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern D: orphan tool result", () => {
  it("removes the orphan and reports it whole", () => {
    const orphan = result("tx", "gone");
    const broken = [human("h1"), reply("a0"), orphan, human("h2"), reply("a2")];
    expect(providerError("openai", broken)).toMatch(/must be a response to a preceeding message with 'tool_calls'/);

    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual(["human:h1", "ai:a0", "human:h2", "ai:a2"]);
    expect(repairs).toEqual([
      {
        code: "D",
        kind: "orphan-tool-result",
        action: "removed",
        index: 2,
        message: orphan,
        messageId: "tx",
        toolCallId: "gone",
      },
    ]);
    expectAcceptedByAllProviders(messages);
  });

  it("removes a result that comes before the call it names", () => {
    const { messages, repairs } = repairMessages([
      human("h1"),
      result("early", "c1"),
      calls("a1", "c1"),
      result("t1", "c1"),
      reply("a"),
    ]);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:t1>c1", "ai:a"]);
    expect(repairs.map((r) => [r.code, r.messageId])).toEqual([["D", "early"]]);
  });
});
