// Pattern B: an AIMessage whose tool calls got no ToolMessage at all (cancelled before or during the tool node).
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern B: tool calls with no result", () => {
  it("answers every call with an error placeholder right after the call, then closes the turn", () => {
    const broken = [human("h1"), calls("a1", "c1", "c2"), human("h2"), reply("a2")];
    expect(providerError("anthropic", broken)).toMatch(
      /`tool_use` ids were found without `tool_result` blocks immediately after: c1, c2/,
    );
    expect(providerError("openai", broken)).toMatch(
      /must be followed by tool messages responding to each 'tool_call_id'/,
    );

    const { messages, repairs } = repairMessages(broken);

    expect(shape(messages)).toEqual([
      "human:h1",
      "ai:a1",
      "tool:sanitizer-result-a1-c1>c1",
      "tool:sanitizer-result-a1-c2>c2",
      "ai:sanitizer-reply-h1",
      "human:h2",
      "ai:a2",
    ]);
    expect(repairs.map((r) => [r.code, r.toolCallId])).toEqual([
      ["B", "c1"],
      ["B", "c2"],
      ["C", undefined],
    ]);
    expect(messages[2]).toMatchObject({
      status: "error",
      name: "tool_c1",
      content: "[No result was recorded for this tool call.]",
    });
    expectAcceptedByAllProviders(messages);
  });

  it("closes an unanswered call at the end of a cancelled run", () => {
    const { messages } = repairMessages([human("h1"), calls("a1", "c1")]);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:sanitizer-result-a1-c1>c1", "ai:sanitizer-reply-h1"]);
    expectAcceptedByAllProviders([...messages, human("next")]);
  });

  it("gives each turn its own placeholder ids when a provider reuses call ids", () => {
    const { messages } = repairMessages([human("h1"), calls("a1", "call_0"), human("h2"), calls("a2", "call_0")]);
    const ids = messages.map((m) => (m as { id: string }).id);
    expect(ids).toContain("sanitizer-result-a2-call_0");
    expect(ids.filter((id) => id.startsWith("sanitizer-result-a1-"))).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
    expectAcceptedByAllProviders([...messages, human("next")]);
  });
});
