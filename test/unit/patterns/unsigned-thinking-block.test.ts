// Pattern R: a thinking block cut off before its signature (a stopped stream leaves `signature: ""`), or a
// redacted_thinking block without its data.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { human, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const signed = { type: "thinking", thinking: "First, the forecast.", signature: "sig-1" };
const redacted = { type: "redacted_thinking", data: "opaque" };
const text = { type: "text", text: "It is sunny." };

describe("pattern R: an unsigned thinking block", () => {
  it.each([
    [
      "an empty signature, as a stream cut off before its signature_delta leaves it",
      { signature: "" },
      /Invalid `signature`/,
    ],
    ["no signature", {}, /thinking.signature: Field required/],
  ])("drops a thinking block with %s, whole, and keeps the signed ones in place", (_, fields, error) => {
    const cut = { type: "thinking", thinking: "Then the", ...fields };
    const partial = new AIMessage({
      id: "a1",
      content: [signed, redacted, cut] as never,
      response_metadata: { model_provider: "anthropic" },
    });
    const broken = [human("h1"), partial, human("h2")];
    expect(providerError("anthropic", broken)).toMatch(error);

    const { messages, repairs } = repairMessages(broken);
    const content = (messages[1] as AIMessage).content as unknown[];
    expect(content).toEqual([signed, redacted]);
    content.forEach((block, i) => expect(block).toBe([signed, redacted][i]));
    expect(repairs[0]).toMatchObject({
      code: "R",
      kind: "unsigned-thinking-block",
      action: "rewritten",
      original: partial,
    });
    expectAcceptedByAllProviders(messages);
  });

  it("drops a redacted_thinking block without its data", () => {
    const broken = [human("h1"), new AIMessage({ id: "a1", content: [{ type: "redacted_thinking" }, text] as never })];
    expect(providerError("anthropic", [...broken, human("h2")])).toMatch(/redacted_thinking.data: Field required/);
    expect((repairMessages(broken).messages[1] as AIMessage).content).toEqual([text]);
  });

  it("removes a reply cut off while it was thinking, and closes the turn", () => {
    const cut = new AIMessage({ id: "a1", content: [{ type: "thinking", thinking: "Hmm", signature: "" }] as never });
    const { messages, repairs } = repairMessages([human("h1"), cut]);
    expect(shape(messages)).toEqual(["human:h1", "ai:sanitizer-reply-h1"]);
    expect(repairs[0]).toMatchObject({ code: "R", action: "removed", message: cut });
  });

  it("reports every rule that left a reply with nothing to send", () => {
    const cut = new AIMessage({
      id: "a1",
      content: [
        { type: "thinking", thinking: "Hmm", signature: "" },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      ] as never,
    });
    const { repairs } = repairMessages([human("h1"), cut, human("h2")]);
    expect(repairs.filter((r) => r.action === "removed").map((r) => r.code)).toEqual(["Q", "R"]);
  });

  it("keeps thought parts with no signature of a reply Anthropic did not make (Gemini's need none), and a clean signed reply", () => {
    for (const metadata of [{ model_provider: "google-genai" }, {}]) {
      const thoughts = new AIMessage({
        id: "a1",
        content: [{ type: "thinking", thinking: "Let me think." }, text] as never,
        response_metadata: metadata,
      });
      const history = [human("h1"), thoughts];
      expect(repairMessages(history).messages).toBe(history);
    }
    // A Claude model's reply that records no provider is Anthropic's.
    const claude = new AIMessage({
      id: "a1",
      content: [{ type: "thinking", thinking: "Hmm" }, text] as never,
      response_metadata: { model: "claude-sonnet-4-5-20250929" },
    });
    expect(repairMessages([human("h1"), claude]).repairs.map((r) => r.code)).toEqual(["R"]);
    const clean = [human("h1"), new AIMessage({ id: "a1", content: [signed, redacted, text] as never })];
    expect(repairMessages(clean).messages).toBe(clean);
  });

  it.each([
    ["provider: anthropic", { provider: "anthropic" }],
    ["a Claude model", { model: "claude-sonnet-4-5" }],
    ["Bedrock with a Claude model", { provider: "bedrock", model: "us.anthropic.claude-sonnet-4-5-v1:0" }],
  ] as const)(
    "drops a thinking block with no signature, whoever made it, where the history goes to Claude: %s",
    (_, options) => {
      // A Gemini thought carried over on a model switch, and a block an app built.
      for (const metadata of [{ model_provider: "google-genai" }, {}]) {
        const thoughts = new AIMessage({
          id: "a1",
          content: [{ type: "thinking", thinking: "Let me think." }, text] as never,
          response_metadata: metadata,
        });
        const history = [human("h1"), thoughts, human("h2")];
        expect(providerError("anthropic", history)).toMatch(/thinking.signature: Field required/);
        const { messages, repairs } = repairMessages(history, { ...options, tail: "request" });
        expect((messages[1] as AIMessage).content).toEqual([text]);
        expect(repairs.map((r) => [r.code, r.action])).toEqual([["R", "rewritten"]]);
      }
    },
  );

  it("keeps them for a model that is not Claude, under Bedrock too", () => {
    const thoughts = new AIMessage({ id: "a1", content: [{ type: "thinking", thinking: "Hmm" }, text] as never });
    const history = [human("h1"), thoughts];
    for (const options of [
      { provider: "gemini" },
      { provider: "bedrock" },
      { provider: "bedrock", model: "amazon.nova-pro-v1:0" },
    ] as const)
      expect(repairMessages(history, options).messages).toBe(history);
  });
});
