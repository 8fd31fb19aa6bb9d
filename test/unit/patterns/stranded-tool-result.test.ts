// Pattern N: finished sibling ToolMessages stranded in pendingWrites (parallel tools, one cancelled).
// The engine half: results handed in from outside the list. The checkpointer half is in test/checkpointer.
import type { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, result, shape } from "../../support/generators/messages.js";

describe("pattern N: results recovered from outside the list", () => {
  it("uses a recovered result instead of a placeholder for the last turn", () => {
    const stranded = result("t2", "c2");
    const { messages, repairs } = repairMessages([human("h"), calls("a1", "c1", "c2")], {
      recoveredResults: [stranded],
    });
    expect(shape(messages)).toEqual([
      "human:h",
      "ai:a1",
      "tool:sanitizer-result-a1-c1>c1",
      "tool:t2>c2",
      "ai:sanitizer-reply-h",
    ]);
    expect(repairs.find((r) => r.code === "N")).toMatchObject({ action: "inserted", index: 3, message: stranded });
    expectAcceptedByAllProviders([...messages, human("next")]);
  });

  it("does not give a recovered result to an earlier turn that reused the call id", () => {
    const { messages } = repairMessages([human("h1"), calls("a1", "call_0"), human("h2"), calls("a2", "call_0")], {
      recoveredResults: [result("late", "call_0")],
    });
    // The earlier call is renamed (pattern I): only the last call answers to call_0, and the recovered result to it.
    const earlier = (messages[1] as AIMessage).tool_calls![0]!.id!;
    expect(earlier).not.toBe("call_0");
    expect(shape(messages)).toContain(`tool:sanitizer-result-a1-${earlier}>${earlier}`);
    expect(shape(messages)).toContain("tool:late>call_0");
  });

  it("gives one recovered result to one call when two parallel calls share its id", () => {
    const { messages, repairs } = repairMessages([human("h"), calls("a1", "dup", "dup")], {
      recoveredResults: [result("t1", "dup")],
    });
    expect(repairs.filter((r) => r.code === "N")).toHaveLength(1);
    expect(shape(messages).filter((s) => s.startsWith("tool:t1"))).toHaveLength(1);
    expectAcceptedByAllProviders([...messages, human("next")]);
  });

  it("ignores recovered results when the tail is preserved", () => {
    const input = [human("h"), calls("a1", "c1")];
    expect(repairMessages(input, { tail: "resumable", recoveredResults: [result("t1", "c1")] }).messages).toBe(input);
  });
});
