// Pattern S: thinking blocks another model signed (a fallback, a model switch), for the model the history goes to.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { human } from "../../support/generators/messages.js";
import { thinkingOfAnotherModel } from "../../support/oracle/provider-rejections.js";

const thinking = { type: "thinking", thinking: "Weigh both.", signature: "sig-opus" };
const redacted = { type: "redacted_thinking", data: "opaque" };
const text = { type: "text", text: "Both work." };
const madeBy = (model: string | undefined) =>
  new AIMessage({
    id: "a1",
    content: [thinking, redacted, text] as never,
    response_metadata: model === undefined ? {} : { model, model_provider: "anthropic" },
  });

describe("pattern S: thinking blocks of another model", () => {
  it("drops the thinking blocks of a reply another model made, whole, for the model named", () => {
    const fallback = madeBy("claude-opus-4-1-20250805");
    const history = [human("h1"), fallback, human("h2")];
    expect(thinkingOfAnotherModel(history, "claude-sonnet-4-5")).toMatch(/Invalid `signature` in `thinking` block/);

    const { messages, repairs } = repairMessages(history, { model: "claude-sonnet-4-5" });
    expect((messages[1] as AIMessage).content).toEqual([text]);
    expect(((messages[1] as AIMessage).content as unknown[])[0]).toBe(text);
    expect(repairs[0]).toMatchObject({
      code: "S",
      kind: "foreign-thinking-block",
      action: "rewritten",
      original: fallback,
    });
    expect(thinkingOfAnotherModel(messages as AIMessage[], "claude-sonnet-4-5")).toBeUndefined();
  });

  it("keeps the blocks of the model named, under a dated or -latest name, of a reply that records no model, and without a model named", () => {
    for (const made of ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5", undefined]) {
      const history = [human("h1"), madeBy(made)];
      expect(repairMessages(history, { model: "claude-sonnet-4-5" }).messages).toBe(history);
    }
    // One model under its names: `-latest`, a `-0` minor, Vertex's `@date`, Bedrock's ids.
    for (const [made, named] of [
      ["claude-3-7-sonnet-20250219", "claude-3-7-sonnet-latest"],
      ["claude-sonnet-4-20250514", "claude-sonnet-4-0"],
      ["claude-sonnet-4-5@20250929", "claude-sonnet-4-5"],
      ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic:claude-sonnet-4-5"],
    ]) {
      const history = [human("h1"), madeBy(made)];
      expect(repairMessages(history, { model: named }).messages).toBe(history);
    }
    // Bedrock ids of two models are two models.
    const other = [human("h1"), madeBy("anthropic.claude-opus-4-1-20250805-v1:0")];
    expect(repairMessages(other, { model: "anthropic.claude-sonnet-4-5-20250929-v1:0" }).repairs).toHaveLength(1);
    const switched = [human("h1"), madeBy("claude-opus-4-1-20250805")];
    expect(repairMessages(switched).messages).toBe(switched);
  });

  it("rejects a model option that names nothing", () => {
    expect(() => repairMessages([human("h1")], { model: " " })).toThrow(/model must be the name of the model/);
  });
});
