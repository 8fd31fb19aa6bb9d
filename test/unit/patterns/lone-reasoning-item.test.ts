// Pattern P: a Responses reasoning item stored without the item that followed it (a partial reply saved on stop).
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { human, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const reasoning = (id: string) => ({ type: "reasoning", id, summary: [], encrypted_content: `enc-${id}` });
const message = { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hi" }] };

describe("pattern P: a lone reasoning item", () => {
  it("sends a copy of the stored output without it", () => {
    const partial = new AIMessage({
      id: "a1",
      content: "Thought about it.",
      response_metadata: { output: [reasoning("rs_1")], model: "gpt-5" },
    });
    const broken = [human("h1"), partial, human("h2")];
    expect(providerError("openai-responses", broken)).toMatch(/Item 'rs_1' of type 'reasoning' was provided without/);

    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "human:h2", "ai:sanitizer-reply-h2"]);
    expect((messages[1] as AIMessage).response_metadata).toEqual({ output: [], model: "gpt-5" });
    expect(repairs[0]).toMatchObject({
      code: "P",
      kind: "lone-reasoning-item",
      action: "rewritten",
      original: partial,
    });
    expectAcceptedByAllProviders(messages);
  });

  it("keeps a reasoning item with the item after it, and drops one followed only by another reasoning item", () => {
    const stored = new AIMessage({
      id: "a1",
      content: "Hi",
      response_metadata: { output: [reasoning("rs_1"), reasoning("rs_2"), message] },
    });
    const { messages } = repairMessages([human("h1"), stored]);
    expect((messages[1] as AIMessage).response_metadata.output).toEqual([reasoning("rs_2"), message]);
  });

  it("leaves a clean output alone", () => {
    const clean = [
      human("h1"),
      new AIMessage({ id: "a1", content: "Hi", response_metadata: { output: [reasoning("rs_1"), message] } }),
    ];
    expect(repairMessages(clean).messages).toBe(clean);
  });
});
