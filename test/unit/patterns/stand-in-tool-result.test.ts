// Pattern AA: a front end's stand-in for a call a stopped run left open, in the next input, while the call's real
// result finished and waits in pendingWrites. The checkpointer half (the read of a run's input) is in
// test/scenarios/front-end-answers.test.ts.
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, result, shape } from "../../support/generators/messages.js";

const stored = [human("h"), calls("a1", "c1", "c2")];

describe("pattern AA: a stand-in yields to the finished result", () => {
  it("removes the input's stand-in and answers the call with the finished result", () => {
    const finished = result("t2", "c2");
    const standIn = result("stub2", "c2", "Successfully handled tool call.");
    const input = [result("stub1", "c1", "Successfully handled tool call."), standIn, human("next")];
    const { messages, repairs, inputStart } = repairMessages([...stored, ...input], {
      inputStart: stored.length,
      recoveredResults: [finished],
    });
    expect(shape(messages)).toEqual([
      "human:h",
      "ai:a1",
      "tool:stub1>c1",
      "tool:t2>c2",
      "ai:sanitizer-reply-h",
      "human:next",
    ]);
    expect(repairs.find((r) => r.code === "AA")).toMatchObject({ action: "removed", index: 3, message: standIn });
    expect(repairs.find((r) => r.code === "N")).toMatchObject({ action: "inserted", message: finished });
    // The input starts with the first of its messages that went out.
    expect(inputStart).toBe(2);
    expectAcceptedByAllProviders(messages);
  });

  it("leaves a result the stored history holds, and a stand-in with no finished result", () => {
    const history = [human("h"), calls("a1", "c1"), result("t1", "c1"), human("next")];
    const kept = repairMessages(history, { inputStart: 2, recoveredResults: [result("other", "c9")] });
    expect(kept.repairs.filter((r) => r.code === "AA")).toEqual([]);
    expect(shape(kept.messages)).toContain("tool:t1>c1");
    // Results stored before the input are the run's own, not a client's.
    const own = repairMessages(history, { inputStart: 3, recoveredResults: [result("late", "c1")] });
    expect(own.repairs.filter((r) => r.code === "AA")).toEqual([]);
  });
});
