// Pattern G: a call that some integrations send and others do not (stored outside tool_calls).
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { findTailStart } from "../../../src/repair/walk/tail.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import {
  anthropicTurn,
  human,
  openAiTurn,
  reply,
  responsesTurn,
  result,
  shape,
} from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const callIds = (m: unknown) => (m as AIMessage).tool_calls!.map((c) => c.id);

describe("pattern G: a call outside tool_calls", () => {
  it("answers a turn whose only call is invalid (ChatOpenAI sends it from additional_kwargs) and closes the thread", () => {
    const broken = [human("h1"), openAiTurn("a1", [], ["c9"])];
    expect(providerError("openai", [...broken, human("h2")])).toMatch(/did not have response messages: c9/);
    // Nothing can run it (ToolNode runs tool_calls only): the run stopped, so even a preserving read repairs it.
    expect(findTailStart(broken)).toBe(broken.length);

    const { messages, repairs } = repairMessages(broken, { tail: "resumable" });
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:sanitizer-result-a1-c9>c9", "ai:sanitizer-reply-h1"]);
    expect(repairs.map((r) => [r.code, r.action])).toEqual([
      ["G", "rewritten"],
      ["B3", "inserted"],
      ["C", "inserted"],
    ]);
    expect(repairs[0]!.original).toBe(broken[1]);
    expect((messages[1] as AIMessage).tool_calls).toEqual([{ id: "c9", name: "search", args: {}, type: "tool_call" }]);
    expect((messages[1] as AIMessage).invalid_tool_calls).toEqual([]);
    expectAcceptedByAllProviders([...messages, human("h2")]);
  });

  it("answers a truncated call of a Responses turn, whose stored output is replayed, and keeps the reasoning item", () => {
    const turn = responsesTurn("a1", ["ok"], ["bad"]);
    const broken = [human("h1"), turn, result("t1", "ok"), reply("a2")];
    expect(providerError("openai-responses", [...broken, human("h2")])).toMatch(
      /No tool output found for function call bad/,
    );

    const { messages } = repairMessages(broken);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:t1>ok", "tool:sanitizer-result-a1-bad>bad", "ai:a2"]);
    expect(callIds(messages[1])).toEqual(["ok", "bad"]);
    expect((messages[1] as BaseMessage).response_metadata).toEqual(turn.response_metadata);
    expectAcceptedByAllProviders([...messages, human("h2")]);
  });

  it("keeps a signed thinking block in place when it makes a tool_use block visible", () => {
    const turn = anthropicTurn("a1", ["ok"], ["bad"]);
    const { messages } = repairMessages([human("h1"), turn, result("t1", "ok"), reply("a2")]);
    expect((messages[1] as BaseMessage).content).toEqual(turn.content);
    expect(callIds(messages[1])).toEqual(["ok", "bad"]);
  });

  it("leaves a ChatOpenAI turn with an invalid call next to valid ones as it is: only the valid ones are sent", () => {
    const input = [human("h1"), openAiTurn("a1", ["ok"], ["bad"]), result("t1", "ok"), reply("a2")];
    expect(repairMessages(input).messages).toBe(input);
    expectAcceptedByAllProviders([...input, human("h2")]);
  });
});
