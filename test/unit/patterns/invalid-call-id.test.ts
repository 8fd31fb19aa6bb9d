// Pattern I: tool call ids a provider rejects: empty, blank, outside [A-Za-z0-9_-], over 40 characters, or reused.
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import {
  anthropicTurn,
  calls,
  geminiTurn,
  human,
  reply,
  responsesTurn,
  result,
  shape,
} from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const callIds = (m: unknown) => (m as AIMessage).tool_calls!.map((c) => c.id!);
const VALID = /^[A-Za-z0-9_-]{1,40}$/;

describe("pattern I: call ids providers reject", () => {
  it.each([
    ["empty", "", "anthropic", /String should match pattern/],
    ["blank", "   ", "bedrock", /regular expression pattern/],
    ["with a dot", "call.1", "anthropic", /String should match pattern/],
    ["over 40 characters", "x".repeat(41), "openai", /maximum length 40/],
  ] as const)("gives an %s id and its result one deterministic replacement", (_, id, profile, error) => {
    const broken = [human("h1"), calls("a1", id), result("t1", id), reply("a2")];
    expect(providerError(profile, broken)).toMatch(error);

    const { messages, repairs } = repairMessages(broken);
    const [renamed] = callIds(messages[1]);
    expect(renamed).toMatch(VALID);
    expect((messages[2] as ToolMessage).tool_call_id).toBe(renamed);
    expect(shape(messages).map((s) => s.split(">")[0])).toEqual(["human:h1", "ai:a1", "tool:t1", "ai:a2"]);
    expect(repairs.map((r) => [r.code, r.action, r.messageId])).toEqual([
      ["I", "rewritten", "a1"],
      ["I", "rewritten", "t1"],
    ]);
    expect(callIds(repairMessages(broken).messages[1])).toEqual([renamed]);
    expectAcceptedByAllProviders([...messages, human("h2")]);
  });

  it("keeps an AIMessage whose calls all lack ids, with its real results (it is not an empty reply)", () => {
    const { messages, repairs } = repairMessages([
      human("h1"),
      calls("a1", "", ""),
      result("t1", ""),
      result("t2", ""),
      reply("a2"),
    ]);
    expect(repairs.some((r) => r.code === "H" || r.code === "D")).toBe(false);
    const ids = callIds(messages[1]);
    expect(new Set(ids).size).toBe(2);
    expect(messages.slice(2, 4).map((m) => (m as ToolMessage).tool_call_id)).toEqual(ids);
    expectAcceptedByAllProviders([...messages, human("h2")]);
  });

  it("renames the earlier occurrences of a reused id and never the last call, which a resumed run may answer", () => {
    const broken = [
      human("h1"),
      calls("a1", "call_0"),
      result("t1", "call_0"),
      reply("a2"),
      human("h2"),
      calls("a3", "call_0"),
    ];
    expect(providerError("anthropic", [...broken, result("t3", "call_0")])).toMatch(/`tool_use` ids must be unique/);

    const { messages } = repairMessages(broken, { tail: "resumable" });
    expect(messages[5]).toBe(broken[5]);
    const [earlier] = callIds(messages[1]);
    expect(earlier).not.toBe("call_0");
    expect((messages[2] as ToolMessage).tool_call_id).toBe(earlier);
    expectAcceptedByAllProviders([...messages, result("t3", "call_0"), reply("a4")]);
  });

  it("renames a call wherever its message holds the id: content blocks, stored output, signature map", () => {
    const reused = (turn: AIMessage) => [
      human("h1"),
      turn,
      result("t1", "c1"),
      reply("a2"),
      human("h2"),
      calls("a3", "c1"),
      result("t3", "c1"),
      reply("a4"),
    ];
    const anthropic = repairMessages(reused(anthropicTurn("a1", ["c1"]))).messages[1] as BaseMessage;
    const [id] = callIds(anthropic);
    expect(anthropic.content).toEqual([
      expect.objectContaining({ type: "thinking", signature: "sig-a1" }),
      expect.objectContaining({ type: "tool_use", id }),
    ]);

    const responses = repairMessages(reused(responsesTurn("a1", ["c1"]))).messages[1] as BaseMessage;
    const output = (responses.response_metadata as { output: unknown }).output as Array<{
      type: string;
      call_id?: string;
    }>;
    expect(output.map((o) => [o.type, o.call_id])).toEqual([
      ["reasoning", undefined],
      ["function_call", callIds(responses)[0]],
    ]);

    const gemini = repairMessages(reused(geminiTurn("a1", ["c1"]))).messages[1] as BaseMessage;
    expect(gemini.additional_kwargs.__gemini_function_call_thought_signatures__).toEqual({
      [callIds(gemini)[0]!]: "sig-c1",
    });
  });

  it("leaves valid, unique ids alone", () => {
    const input = [
      human("h1"),
      calls("a1", "toolu_01A", "call_abc-1"),
      result("t1", "toolu_01A"),
      result("t2", "call_abc-1"),
      reply("a2"),
    ];
    expect(repairMessages(input).messages).toBe(input);
  });
});
