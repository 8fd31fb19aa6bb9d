// Pattern Z: a model request that ends on a reply, which the models without prefill, Gemini and Mistral reject.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { human, reply, result, shape } from "../../support/generators/messages.js";
import { requestEndError } from "../../support/oracle/provider-rejections.js";

describe("pattern Z: a request that ends on a reply", () => {
  it.each(["anthropic", "bedrock", "gemini", "mistral"] as const)(
    "asks the model to go on with a marker user turn under %s's rules",
    (provider) => {
      const request = [human("h1"), reply("a1")];
      expect(requestEndError(provider, request)).toBeDefined();

      const { messages, repairs } = repairMessages(request, { provider, tail: "request" });
      expect(shape(messages)).toEqual(["human:h1", "ai:a1", "human:sanitizer-continue-a1"]);
      expect(messages[2]).toMatchObject({ content: "[Continue.]" });
      expect(repairs).toMatchObject([{ code: "Z", kind: "request-ends-on-reply", action: "inserted", index: 2 }]);
      expect(requestEndError(provider, messages as AIMessage[])).toBeUndefined();
    },
  );

  it("asks it for every provider where the repair made that end: an orphan result removed after the reply", () => {
    const { messages, repairs } = repairMessages([human("h1"), reply("a1"), result("t9", "gone")], { tail: "request" });
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "human:sanitizer-continue-a1"]);
    expect(repairs.map((r) => r.code)).toEqual(["D", "Z"]);
  });

  it("leaves a request to a Claude model that takes a prefill (before 4.6) as it is, under Anthropic's and Bedrock's rules", () => {
    const request = [human("h1"), reply("a1")];
    for (const model of ["claude-sonnet-4-5", "claude-3-7-sonnet-latest", "anthropic.claude-opus-4-1-20250805-v1:0"]) {
      expect(repairMessages(request, { provider: "anthropic", model, tail: "request" }).messages).toBe(request);
      expect(repairMessages(request, { provider: "bedrock", model, tail: "request" }).messages).toBe(request);
    }
    for (const model of ["claude-sonnet-4-6", "claude-opus-4-7-20261001", "claude-sonnet-5"]) {
      expect(repairMessages(request, { provider: "anthropic", model, tail: "request" }).repairs[0]?.code).toBe("Z");
    }
    // Gemini and Mistral take no prefill whatever the model, so every provider's rules do not either.
    expect(
      repairMessages(request, { provider: "strictest", model: "claude-sonnet-4-5", tail: "request" }).repairs,
    ).toHaveLength(1);
  });

  it("leaves a turn the API paused, the providers that take a prefill, and a read before new input alone", () => {
    const paused = new AIMessage({ id: "a1", content: "Searching", response_metadata: { stop_reason: "pause_turn" } });
    const request = [human("h1"), paused];
    expect(requestEndError("anthropic", request)).toBeUndefined();
    expect(repairMessages(request, { provider: "anthropic", tail: "request" }).messages).toBe(request);
    const plain = [human("h1"), reply("a1")];
    expect(repairMessages(plain, { provider: "openai", tail: "request" }).messages).toBe(plain);
    expect(repairMessages(plain, { tail: "request" }).messages).toBe(plain);
    expect(repairMessages(plain, { provider: "strictest" }).messages).toBe(plain);
  });
});
