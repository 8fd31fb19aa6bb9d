// Pattern AB: a client that sends back the state it read (CopilotKit's AG-UI adapter) echoes the placeholders and
// markers a read inserted into the next run's input. The checkpointer half is in test/scenarios/front-end-journeys.test.ts.
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, shape } from "../../support/generators/messages.js";

describe("pattern AB: the sanitizer's own messages sent back in the input", () => {
  it("removes a closing marker the input ends on, so the request ends on the user's turn as stored", () => {
    const stored = [human("h0"), reply("a0"), human("h1")];
    const echo = reply("sanitizer-reply-h1", "[No reply was recorded for the previous message.]");
    const { messages, repairs } = repairMessages([...stored, echo], { inputStart: stored.length });
    expect(shape(messages)).toEqual(["human:h0", "ai:a0", "human:h1"]);
    expect(repairs).toMatchObject([{ code: "AB", action: "removed", message: echo }]);
  });

  it("puts back what the history still needs, under the same ids", () => {
    const stored = [human("h1"), calls("a1", "c1")];
    const read = repairMessages(stored).messages; // what getState showed the client
    const input = [...read.slice(stored.length), human("h2")];
    const { messages, repairs } = repairMessages([...stored, ...input], { inputStart: stored.length });
    expect(shape(messages)).toEqual([...shape(read), "human:h2"]);
    expect(repairs.map((r) => `${r.code} ${r.action}`)).toEqual([
      "AB removed",
      "AB removed",
      "B inserted",
      "C inserted",
    ]);
    expectAcceptedByAllProviders(messages);
  });

  it("leaves the sanitizer's messages the stored history holds", () => {
    const stored = repairMessages([human("h1"), calls("a1", "c1")]).messages;
    const history = [...stored, human("h2")];
    expect(repairMessages(history, { inputStart: stored.length }).messages).toBe(history);
  });
});
