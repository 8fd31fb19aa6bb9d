// Pattern V: a Responses reasoning item the API cannot find: kept only by its id from a response that never
// completed (a partial reply saved on stop), or that `store: false` never kept.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { human } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const byId = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Check the forecast." }] };
const encrypted = { ...byId, encrypted_content: "enc-1" };
const message = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Sunny.", annotations: [] }],
};
const NOT_FOUND = /Item with id 'rs_1' not found. Items are not persisted when `store` is set to false/;

describe("pattern V: an unkept reasoning item", () => {
  it("drops the reasoning item of a partial reply saved on stop, which its response never completed", () => {
    // As ChatOpenAI's stream chunks leave it: the item added, the response never completed (no status, no output).
    const partial = new AIMessage({
      id: "resp_1",
      content: "It is",
      additional_kwargs: { reasoning: byId },
      response_metadata: { model_provider: "openai", id: "resp_1", model: "gpt-5-mini" },
    });
    const broken = [human("h1"), partial, human("h2")];
    expect(providerError("openai-responses", broken)).toMatch(NOT_FOUND);

    const { messages, repairs } = repairMessages(broken);
    expect((messages[1] as AIMessage).additional_kwargs).toEqual({});
    expect((messages[1] as AIMessage).content).toBe("It is");
    expect(repairs[0]).toMatchObject({
      code: "V",
      kind: "unkept-reasoning-item",
      action: "rewritten",
      original: partial,
    });
    expectAcceptedByAllProviders(messages);
  });

  it("drops the reasoning items store: false never kept from the replayed output", () => {
    const stored = new AIMessage({
      id: "resp_1",
      content: "Sunny.",
      response_metadata: { model_provider: "openai", status: "completed", store: false, output: [byId, message] },
    });
    const broken = [human("h1"), stored, human("h2")];
    expect(providerError("openai-responses", broken)).toMatch(NOT_FOUND);
    const { messages } = repairMessages(broken);
    expect((messages[1] as AIMessage).response_metadata.output).toEqual([message]);
    expectAcceptedByAllProviders(messages);
  });

  it("keeps reasoning with its encrypted content, from a completed response, or from a stored one", () => {
    for (const history of [
      [
        human("h1"),
        new AIMessage({
          id: "r",
          content: "It is",
          additional_kwargs: { reasoning: encrypted },
          response_metadata: { model_provider: "openai" },
        }),
      ],
      [
        human("h1"),
        new AIMessage({
          id: "r",
          content: "Sunny.",
          additional_kwargs: { reasoning: byId },
          response_metadata: { model_provider: "openai", status: "completed" },
        }),
      ],
      [
        human("h1"),
        new AIMessage({
          id: "r",
          content: "Sunny.",
          response_metadata: { store: false, output: [encrypted, message] },
        }),
      ],
      [
        human("h1"),
        new AIMessage({
          id: "r",
          content: "Sunny.",
          response_metadata: { status: "completed", output: [byId, message] },
        }),
      ],
    ]) {
      expect(repairMessages(history).messages).toBe(history);
    }
  });
});
