// Pattern K: two replies in a row, e.g. a partial answer kept when the user pressed stop, then a regenerated one,
// or a supervisor's agent answering, then handing back. Role order: repaired only for the providers that reject it.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { MARKER_PRESETS, repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders, expectAcceptedUnder } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern K: two replies in a row", () => {
  it("leaves two replies in a row as stored by default: a supervisor's agent answers, then hands back", () => {
    const supervised = [
      human("h1"),
      reply("a1", "It is sunny in Paris."),
      reply("a2", "Transferring back to supervisor"),
      reply("a3", "It is sunny."),
    ];
    expectAcceptedUnder("openai", supervised);
    expect(repairMessages(supervised).messages).toBe(supervised);
    expect(repairMessages(supervised, { provider: "mistral" }).messages).toBe(supervised);
  });

  it("inserts a marker HumanMessage between them for Anthropic, and keeps both replies as stored", () => {
    const partial = reply("a1", "Paris is usually mild in");
    const full = reply("a2", "Paris is usually mild in spring.");
    const broken = [human("h1"), partial, full, human("h2"), reply("a3")];
    expect(providerError("bedrock", broken)).toMatch(/must alternate between user and assistant/);

    const { messages, repairs } = repairMessages(broken, { provider: "anthropic" });
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "human:sanitizer-between-a1", "ai:a2", "human:h2", "ai:a3"]);
    expect(messages[1]).toBe(partial);
    expect(messages[3]).toBe(full);
    expect(messages[2]).toMatchObject({ content: MARKER_PRESETS.en.missingTurnBetweenReplies });
    expect(repairs.map((r) => [r.code, r.kind, r.action])).toEqual([["K", "consecutive-replies", "inserted"]]);
    expectAcceptedUnder("anthropic", messages);
    expectAcceptedByAllProviders(repairMessages(broken, { provider: "strictest" }).messages);
  });

  it("separates a reply from the tool-calling reply after it, and the replies an empty one stood between (H, K)", () => {
    const withCalls = [human("h1"), reply("a1"), calls("a2", "c1"), result("t1", "c1"), reply("a3")];
    expect(repairMessages(withCalls).messages).toBe(withCalls);
    expect(shape(repairMessages(withCalls, { provider: "bedrock" }).messages)).toEqual([
      "human:h1",
      "ai:a1",
      "human:sanitizer-between-a1",
      "ai:a2",
      "tool:t1>c1",
      "ai:a3",
    ]);
    const { repairs } = repairMessages(
      [human("h1"), reply("a1"), new AIMessage({ id: "e", content: "" }), reply("a2")],
      { provider: "gemini" },
    );
    expect(repairs.map((r) => r.code)).toEqual(["H", "K"]);
  });

  it("keeps a thinking reply's blocks first: nothing is merged into it", () => {
    const thinking = new AIMessage({
      id: "a2",
      content: [
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "text", text: "answer" },
      ],
    });
    const { messages } = repairMessages([human("h1"), reply("a1"), thinking], { provider: "anthropic" });
    expect(messages.at(-1)).toBe(thinking);
  });
});
