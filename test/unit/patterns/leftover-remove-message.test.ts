// Pattern L: a RemoveMessage left in a stored list, which every converter refuses.
import { RemoveMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { human, reply, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern L: a leftover RemoveMessage", () => {
  it("removes it and reports it whole", () => {
    const removal = new RemoveMessage({ id: "h0" });
    const broken = [human("h1"), removal, reply("a1"), human("h2")];
    expect(providerError("openai", broken)).toBe("Unknown message type: remove");

    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "human:h2", "ai:sanitizer-reply-h2"]);
    expect(repairs[0]).toEqual({
      code: "L",
      kind: "leftover-remove-message",
      action: "removed",
      index: 1,
      message: removal,
      messageId: "h0",
    });
    expectAcceptedByAllProviders(messages);
  });

  it("reads a RemoveMessage stored as a plain object too", () => {
    const { repairs } = repairMessages([human("h1"), { type: "remove", id: "x", content: "" }, reply("a1")]);
    expect(repairs.map((r) => [r.code, r.action])).toEqual([["L", "removed"]]);
  });
});
