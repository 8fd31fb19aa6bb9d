// A preserved tail is only what a resumed run can still complete; nothing in it is answered twice or stranded.
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { findTailStart } from "../../../src/repair/walk/tail.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, openAiTurn, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("preserving the tail", () => {
  it("moves a result stranded after a user turn to its call instead of answering the call twice", () => {
    const broken = [human("h0"), calls("a1", "c1"), human("h1"), result("t1", "c1")];
    expect(providerError("openai", broken)).toMatch(/did not have response messages: c1/);
    expect(findTailStart(broken)).toBe(broken.length);

    const { messages, repairs } = repairMessages(broken, { tail: "resumable" });
    expect(shape(messages)).toEqual([
      "human:h0",
      "ai:a1",
      "tool:t1>c1",
      "ai:sanitizer-reply-h0",
      "human:h1",
      "ai:sanitizer-reply-h1",
    ]);
    expect(repairs.map((r) => [r.code, r.action])).toEqual([
      ["E", "moved"],
      ["C", "inserted"],
      ["A", "inserted"],
    ]);
    expectAcceptedByAllProviders([...messages, human("h2")]);
  });

  it("does not take results of an earlier turn as the tail of the last one", () => {
    const broken = [human("h0"), calls("a1", "c1"), human("h1"), calls("a2", "c2"), result("t1", "c1")];
    expect(findTailStart(broken)).toBe(broken.length);
    const { messages } = repairMessages(broken, { tail: "resumable" });
    expect(shape(messages).filter((s) => s.includes(">c1"))).toEqual(["tool:t1>c1"]);
    expectAcceptedByAllProviders([...messages, human("h2")]);
  });

  it("still preserves the last turn's calls and the results a resumed run has written so far", () => {
    const input = [human("h0"), calls("a1", "c1", "c2"), result("t1", "c1")];
    expect(findTailStart(input)).toBe(1);
    expect(repairMessages(input, { tail: "resumable" }).messages).toBe(input);
  });

  it("repairs a turn whose only calls are invalid: no run will execute them", () => {
    const broken = [human("h0"), openAiTurn("a1", [], ["c9"])];
    expect(findTailStart(broken)).toBe(broken.length);
    expect(repairMessages(broken, { tail: "resumable" }).repairs.map((r) => r.code)).toEqual(["G", "B3", "C"]);
  });

  it("leaves a finished history alone", () => {
    const input = [human("h0"), calls("a1", "c1"), result("t1", "c1"), reply("a2")];
    expect(repairMessages(input, { tail: "resumable" }).messages).toBe(input);
  });
});
