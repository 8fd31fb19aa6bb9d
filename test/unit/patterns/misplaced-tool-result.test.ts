// Pattern E: a tool result not adjacent to its call, or results out of call order (naive repairs, HITL edits).
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern E: result separated from its call", () => {
  it("moves a result back next to its call, keeping every other message in order", () => {
    const broken = [human("h1"), calls("a1", "c1"), human("h2"), result("t1", "c1"), reply("a2")];
    expect(providerError("anthropic", broken)).toMatch(/without `tool_result` blocks immediately after/);

    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:t1>c1", "ai:sanitizer-reply-h1", "human:h2", "ai:a2"]);
    expect(repairs[0]).toMatchObject({
      code: "E",
      kind: "misplaced-tool-result",
      action: "moved",
      index: 2,
      from: 3,
      messageId: "t1",
    });
    expectAcceptedByAllProviders(messages);
  });

  it("puts parallel results in call order", () => {
    const { messages, repairs } = repairMessages([
      human("h"),
      calls("a1", "c1", "c2"),
      result("t2", "c2"),
      result("t1", "c1"),
      reply("a"),
    ]);
    expect(shape(messages)).toEqual(["human:h", "ai:a1", "tool:t1>c1", "tool:t2>c2", "ai:a"]);
    expect(repairs.every((r) => r.code === "E" && r.action === "moved")).toBe(true);
  });

  it("closes the turn it brought a result back to for every provider, but not one whose results it only put in order", () => {
    // The result came back from past the user turn: the turn now ends before it, which the repair made.
    const separated = repairMessages([human("h1"), calls("a1", "c1"), human("h2"), result("t1", "c1"), reply("a2")]);
    expect(separated.repairs.map((r) => r.code)).toEqual(["E", "C"]);
    // Results already ending the turn before the next user turn: only the role order of some providers (C).
    const reordered = [human("h1"), calls("a1", "c1", "c2"), result("t2", "c2"), result("t1", "c1"), human("h2")];
    expect(repairMessages(reordered, { tail: "resumable" }).repairs.map((r) => r.code)).toEqual(["E", "E"]);
    expect(repairMessages(reordered, { tail: "resumable", provider: "mistral" }).repairs.map((r) => r.code)).toEqual([
      "E",
      "E",
      "C",
    ]);
  });

  it("does not report a result as moved when only an orphan before it was removed", () => {
    const { repairs } = repairMessages([
      human("h"),
      calls("a1", "c1"),
      result("x", "zz"),
      result("t1", "c1"),
      reply("a"),
    ]);
    expect(repairs.map((r) => r.code)).toEqual(["D"]);
  });
});
