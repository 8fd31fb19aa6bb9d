// Where one provider serves models of several makers, the model named decides whose rules hold: Claude on Vertex AI
// follows Anthropic's, OpenRouter's models their maker's, Gemini before 3 checks no thought signature, and Bedrock's
// non-Claude models keep Bedrock's role order but not Claude's thinking rule.
import { AIMessage, SystemMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages, type ProviderChoice } from "../../../src/index.js";
import { calls, human, reply, result } from "../../support/generators/messages.js";

const codes = (provider: ProviderChoice, model: string | undefined, history: unknown[]) =>
  repairMessages(history, { provider, model, tail: "request" }).repairs.map((r) => r.code);

/** A summary kept as a SystemMessage, then the question: Y for Anthropic and Gemini, taken by the others. */
const summary = [human("h1"), reply("a1"), new SystemMessage({ id: "s1", content: "Summary." }), human("h2")];
/** A clean tool-call turn of the current request, whose call carries no Gemini signature. */
const unsignedCall = [human("h1"), calls("a1", "c1"), result("t1", "c1")];
/** A thinking block with no signature, from a model that is not Claude. */
const thought = [
  human("h1"),
  new AIMessage({
    id: "a1",
    content: [
      { type: "thinking", thinking: "Hmm." },
      { type: "text", text: "Hi." },
    ] as never,
  }),
  human("h2"),
];

describe("the rules of a model named under a provider that serves several makers", () => {
  it("Claude on Vertex AI follows Anthropic's rules; Gemini on Vertex, Gemini's", () => {
    // ChatVertexAI sends every SystemMessage of a Claude request in `system`: a summary mid-history is taken.
    expect(codes("vertex", "claude-sonnet-4-5@20250929", summary)).toEqual([]);
    expect(codes("vertex", "claude-sonnet-4-5@20250929", unsignedCall)).toEqual([]);
    expect(codes("vertex", "claude-sonnet-4-5@20250929", thought)).toEqual(["R"]);
    expect(codes("vertex", "gemini-3-pro-preview", unsignedCall)).toEqual(["T"]);
    expect(codes("vertex", undefined, unsignedCall)).toEqual(["T"]);
  });

  it("Gemini before 3 checks no thought signature, on the Gemini API and on Vertex", () => {
    expect(codes("gemini", "gemini-2.5-flash", unsignedCall)).toEqual([]);
    expect(codes("vertex", "gemini-2.0-flash-001", unsignedCall)).toEqual([]);
    expect(codes("gemini", "gemini-3-flash-preview", unsignedCall)).toEqual(["T"]);
    expect(codes("gemini", "gemini-2.5-flash", summary)).toEqual(["Y", "A"]);
  });

  it("OpenRouter: each model its maker's rules, any order for the others", () => {
    expect(codes("openrouter", "anthropic/claude-sonnet-4.5", summary)).toEqual(["Y"]);
    expect(codes("openrouter", "anthropic/claude-sonnet-4.5", thought)).toEqual(["R"]);
    expect(codes("openrouter", "google/gemini-2.5-pro", unsignedCall)).toEqual([]);
    expect(codes("openrouter", "mistralai/mistral-large", summary)).toEqual(["Y"]);
    expect(codes("openrouter", "meta-llama/llama-3.3-70b-instruct", summary)).toEqual([]);
    // Without a model, every maker's rules.
    expect(codes("openrouter", undefined, summary)).toEqual(["Y", "A"]);
  });

  it("Bedrock's non-Claude models keep Bedrock's role order, and a thinking block without a signature", () => {
    const greeting = [reply("a0", "Welcome!"), human("h1")];
    expect(codes("bedrock", "amazon.nova-pro-v1:0", greeting)).toEqual(["J"]);
    expect(codes("bedrock", "amazon.nova-pro-v1:0", thought)).toEqual([]);
    expect(codes("bedrock", "us.anthropic.claude-sonnet-4-5-v1:0", thought)).toEqual(["R"]);
  });

  it("DeepSeek: no two turns of one role in a row, and no request ending on a reply", () => {
    expect(codes("deepseek", "deepseek-chat", [human("h1"), human("h2")])).toEqual(["A"]);
    expect(codes("deepseek", "deepseek-chat", [human("h1"), reply("a1"), reply("a2"), human("h2")])).toEqual(["K"]);
    expect(codes("deepseek", "deepseek-chat", [human("h1"), reply("a1")])).toEqual(["Z"]);
    expect(codes("groq", undefined, [human("h1"), reply("a1"), reply("a2"), human("h2")])).toEqual([]);
  });
});
