// repairMessages on what real state channels hold besides clean message instances.
import { describe, expect, it } from "vitest";
import { MARKER_PRESETS, repairMessages } from "../../../src/index.js";
import { shape } from "../../support/generators/messages.js";

describe("repairMessages on odd input", () => {
  it.each([
    ["plain strings (the conformance suite's messages)", ["hi", "there"]],
    ["an empty list", []],
    ["a mixed list", [{ role: "user", content: "x" }, "y"]],
    ["numbers", [1, 2]],
  ])("returns %s as the same object", (_, value) => {
    const result = repairMessages(value as unknown[]);
    expect(result.messages).toBe(value);
    expect(result.repairs).toEqual([]);
  });

  it.each([null, undefined, "text", 42, { messages: [] }])("returns a non-array (%s) as is", (value) => {
    expect(repairMessages(value as never).messages).toBe(value);
  });

  it("repairs plain-object messages in OpenAI form, with null content and no ids", () => {
    const history = [
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "{}" } }],
      },
      { role: "user", content: "hello?" },
    ];
    const { messages, repairs } = repairMessages(history);
    expect(messages.slice(0, 2)).toEqual(history.slice(0, 2));
    expect(messages[2]).toMatchObject({
      type: "tool",
      tool_call_id: "c1",
      name: "weather",
      id: "sanitizer-result-#1-c1",
    });
    expect(messages[3]).toMatchObject({ type: "ai", id: "sanitizer-reply-#0" });
    expect(messages[4]).toBe(history[2]);
    expect(messages[5]).toMatchObject({ type: "ai", id: "sanitizer-reply-#2" });
    expect(repairs.map((r) => r.code)).toEqual(["B", "C", "A"]);
  });

  it("renames an empty call id of plain-object messages in their own form, as plain objects", () => {
    const history = [
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "", type: "function", function: { name: "weather", arguments: "{}" } }],
      },
      { role: "tool", content: "sunny", tool_call_id: "" },
      { role: "assistant", content: "Sunny." },
    ];
    const { messages, repairs } = repairMessages(history);
    const call = (messages[1] as { tool_calls: Array<{ id: string; function: unknown }> }).tool_calls[0]!;
    expect(call).toEqual({ ...history[1]!.tool_calls![0], id: expect.stringMatching(/^[A-Za-z0-9_-]{1,40}$/) });
    expect(messages[2]).toEqual({ ...history[2], tool_call_id: call.id });
    expect(Object.getPrototypeOf(messages[1])).toBe(Object.prototype);
    expect(repairs.map((r) => [r.code, r.action])).toEqual([
      ["I", "rewritten"],
      ["I", "rewritten"],
    ]);
  });

  it("treats a ChatMessage-style { type: 'generic', role } by its role", () => {
    const { messages } = repairMessages(
      [
        { type: "generic", role: "user", content: "a", id: "u1" },
        { type: "generic", role: "user", content: "b", id: "u2" },
      ],
      { provider: "bedrock" },
    );
    expect(shape(messages)).toEqual(["generic:u1", "ai:sanitizer-reply-u1", "generic:u2", "ai:sanitizer-reply-u2"]);
  });

  it("leaves unknown roles in place and does not count them as turns", () => {
    const fn = { role: "function", content: "legacy", id: "f" };
    const input = [{ role: "user", content: "a", id: "u" }, fn, { role: "assistant", content: "b", id: "a" }];
    expect(repairMessages(input).messages).toBe(input);
  });
});

describe("repairMessages options", () => {
  it("rejects an unknown tail mode, bridge role or marker preset with a clear error", () => {
    expect(() => repairMessages([], { tail: "close" as never })).toThrow(
      'tail must be one of "stopped", "finished", "resumable", "request", "repair", "preserve", got "close".',
    );
    expect(() => repairMessages([], { provider: "azure" as never })).toThrow(
      'provider must be one of "anthropic", "bedrock", "cerebras", "cohere", "deepseek", "gemini", "groq", "mistral", "ollama", "openai", "openrouter", "perplexity", "vertex", "xai", "strictest", got "azure".',
    );
    expect(() => repairMessages([], { bridgeRole: "user" as never })).toThrow(
      'bridgeRole must be one of "ai", "system", got "user".',
    );
    expect(() => repairMessages([], { markers: "fr" as never })).toThrow(
      'markers must be "en", "ko" or an object of custom texts, got "fr".',
    );
    expect(() => repairMessages([], { markers: { missingReply: "" } })).toThrow(
      "markers.missingReply must be a non-empty string.",
    );
  });

  it("offers English and Korean presets", () => {
    expect(Object.keys(MARKER_PRESETS)).toEqual(["en", "ko"]);
    expect(MARKER_PRESETS.ko.missingReplyAfterTools).toBe("[직전 turn 응답이 도구 결과 후 중단됨]");
  });
});
