// Pattern B3: an invalid_tool_calls entry (truncated tool-call JSON) that was never answered.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../src/index.js";
import { expectAcceptedByAllProviders } from "../support/expect-accepted.js";
import { human, result, shape } from "../support/messages.js";

const truncated = new AIMessage({
  id: "a1",
  content: "",
  tool_calls: [{ id: "ok", name: "search", args: { q: "x" }, type: "tool_call" }],
  invalid_tool_calls: [{ id: "bad", name: "search", args: '{"q": "unterminat', error: "JSON parse error", type: "invalid_tool_call" }],
});

describe("pattern B3: unanswered invalid tool call", () => {
  it("answers the invalid call with a placeholder after the valid call's result", () => {
    const { messages, repairs } = repairMessages([human("h1"), truncated, result("t1", "ok")]);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:t1>ok", "tool:sanitizer-result-a1-bad>bad", "ai:sanitizer-after-tools-a1"]);
    expect(repairs[0]).toMatchObject({ kind: "B3", toolCallId: "bad", action: "inserted" });
    expect(messages[3]).toMatchObject({ name: "search", status: "error" });
    expectAcceptedByAllProviders([...messages, human("next")]);
  });
});
