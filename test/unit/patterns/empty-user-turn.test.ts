// Pattern X: a HumanMessage with no content, which Anthropic, Gemini and Bedrock reject: under their rules only.
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedUnder } from "../../support/oracle/expect-accepted.js";
import { human, reply } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern X: an empty user turn", () => {
  it.each(["anthropic", "gemini", "bedrock"] as const)(
    "gives an empty send a marker text under %s's rules",
    (provider) => {
      const stored = new HumanMessage({ id: "h2", content: "" });
      const broken = [human("h1"), reply("a1"), stored];
      expect(providerError(provider, broken)).toMatch(/non-empty content/);

      const { messages, repairs } = repairMessages(broken, { provider, tail: "request" });
      expect(messages[2]).toBeInstanceOf(HumanMessage);
      expect(messages[2]).toMatchObject({ id: "h2", content: "[Empty message.]" });
      expect(repairs).toMatchObject([{ code: "X", kind: "empty-user-turn", action: "rewritten", original: stored }]);
      expectAcceptedUnder(provider, messages);
    },
  );

  it("leaves it alone for the providers that take it, and by default", () => {
    const history = [human("h1"), reply("a1"), new HumanMessage({ id: "h2", content: [] })];
    expect(providerError("openai", history)).toBeUndefined();
    for (const provider of [undefined, "openai", "mistral"] as const) {
      expect(repairMessages(history, { provider, tail: "request" }).messages).toBe(history);
    }
  });
});
