// Pattern B3: a call sent from outside tool_calls (an invalid call: truncated tool-call JSON) never answered.
import { type AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { anthropicTurn, human, openAiTurn, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern B3: unanswered invalid tool call", () => {
  it("answers a truncated tool_use block (ChatAnthropic) after the valid call's result, once the call is visible", () => {
    const broken = [human("h1"), anthropicTurn("a1", ["ok"], ["bad"]), result("t1", "ok")];
    expect(providerError("anthropic", [...broken, reply("a2")])).toMatch(
      /`tool_use` ids were found without `tool_result`.*bad/,
    );

    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual([
      "human:h1",
      "ai:a1",
      "tool:t1>ok",
      "tool:sanitizer-result-a1-bad>bad",
      "ai:sanitizer-reply-h1",
    ]);
    expect(repairs.map((r) => [r.code, r.action])).toEqual([
      ["G", "rewritten"],
      ["B3", "inserted"],
      ["C", "inserted"],
    ]);
    expect(repairs[1]).toMatchObject({
      code: "B3",
      kind: "unanswered-hidden-call",
      toolCallId: "bad",
      action: "inserted",
    });
    expect(messages[3]).toMatchObject({ name: "search", status: "error" });
    expect((messages[1] as AIMessage).tool_calls!.map((c) => c.id)).toEqual(["ok", "bad"]);
    expectAcceptedByAllProviders([...messages, human("next")]);
  });

  it("leaves alone an invalid call stored only in invalid_tool_calls next to valid ones: no integration sends it", () => {
    const input = [human("h1"), openAiTurn("a1", ["ok"], ["bad"]), result("t1", "ok"), reply("a2")];
    expect(repairMessages(input).messages).toBe(input);
  });
});
