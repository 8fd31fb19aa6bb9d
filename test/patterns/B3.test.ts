// Pattern B3: a call outside tool_calls (here an invalid_tool_calls entry, truncated JSON) never answered.
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
  it("answers the invalid call with a placeholder after the valid call's result, and makes the call visible", () => {
    const { messages, repairs } = repairMessages([human("h1"), truncated, result("t1", "ok")]);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:t1>ok", "tool:sanitizer-result-a1-bad>bad", "ai:sanitizer-after-tools-a1"]);
    expect(repairs.map((r) => [r.kind, r.action])).toEqual([["G", "rewritten"], ["B3", "inserted"], ["C", "inserted"]]);
    expect(repairs[1]).toMatchObject({ kind: "B3", toolCallId: "bad", action: "inserted" });
    expect(messages[3]).toMatchObject({ name: "search", status: "error" });
    // The placeholder answers a call that every integration now sends (pattern G), not one only some of them send.
    expect((messages[1] as AIMessage).tool_calls!.map((c) => c.id)).toEqual(["ok", "bad"]);
    expectAcceptedByAllProviders([...messages, human("next")]);
  });
});
