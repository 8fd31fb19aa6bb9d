// Pattern T: a reply of the current turn whose first call lost its Gemini thought signature, under Gemini's rules.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { human, result } from "../../support/generators/messages.js";
import { geminiSignatures } from "../../support/oracle/provider-rejections.js";

const KEY = "__gemini_function_call_thought_signatures__";
const call = (id: string) => ({ id, name: "search", args: {}, type: "tool_call" as const });
const reply = (id: string, callIds: string[], signatures?: Record<string, string>, provider?: string) =>
  new AIMessage({
    id,
    content: "",
    tool_calls: callIds.map(call),
    additional_kwargs: signatures ? { [KEY]: signatures } : {},
    response_metadata: provider ? { model_provider: provider } : {},
  });
const signaturesOf = (m: unknown) => ((m as AIMessage).additional_kwargs[KEY] ?? {}) as Record<string, string>;

describe("pattern T: a Gemini call whose thought signature is lost", () => {
  it("gives the first call of a current-turn reply the documented skip signature, under Gemini's rules", () => {
    // Another model made the call (a fallback mid-turn), or a rewrite dropped the map.
    const foreign = reply("a1", ["c1", "c2"]);
    const request = [human("h1"), foreign, result("t1", "c1"), result("t2", "c2")];
    expect(geminiSignatures(request)).toMatch(/Function call is missing a thought_signature in functionCall parts/);

    const { messages, repairs } = repairMessages(request, { tail: "request", provider: "gemini" });
    expect(signaturesOf(messages[1])).toEqual({ c1: "skip_thought_signature_validator" });
    expect(repairs).toMatchObject([
      { code: "T", kind: "unsigned-gemini-call", action: "rewritten", original: foreign },
    ]);
    expect(geminiSignatures(messages as AIMessage[])).toBeUndefined();
  });

  it("keeps each signature with its call when the repair renames a reused id", () => {
    const first = reply("a1", ["c1"], { c1: "sig-first" }, "google-genai");
    const second = reply("a2", ["c1"], { c1: "sig-second" }, "google-genai");
    const request = [human("h1"), first, result("t1", "c1"), second, result("t2", "c1")];
    const { messages, repairs } = repairMessages(request, { tail: "request", provider: "gemini" });
    expect(repairs.map((r) => r.code)).toEqual(["I", "I"]);
    const renamed = (messages[1] as AIMessage).tool_calls![0]!.id!;
    expect(renamed).not.toBe("c1");
    expect(signaturesOf(messages[1])).toEqual({ [renamed]: "sig-first" });
    expect(signaturesOf(messages[3])).toEqual({ c1: "sig-second" });
    expect(geminiSignatures(messages as AIMessage[])).toBeUndefined();
  });

  it("leaves signed calls, a Gemini reply made without thinking, earlier turns, other providers' rules and a new turn alone", () => {
    const signed = [
      human("h1"),
      reply("a1", ["c1", "c2"], { c1: "sig" }, "google-genai"),
      result("t1", "c1"),
      result("t2", "c2"),
    ];
    expect(repairMessages(signed, { tail: "request", provider: "gemini" }).messages).toBe(signed);
    const unthinking = [human("h1"), reply("a1", ["c1"], undefined, "google-genai"), result("t1", "c1")];
    expect(repairMessages(unthinking, { tail: "request", provider: "gemini" }).messages).toBe(unthinking);
    const answer = new AIMessage({ id: "a2", content: "Done." });
    const earlier = [human("h1"), reply("a1", ["c1"]), result("t1", "c1"), answer, human("h2")];
    expect(repairMessages(earlier, { tail: "request", provider: "gemini" }).messages).toBe(earlier);
    const foreign = [human("h1"), reply("a1", ["c1"]), result("t1", "c1")];
    expect(repairMessages(foreign, { tail: "request", provider: "openai" }).messages).toBe(foreign);
    // A read before new input: the current turn is the new one.
    expect(repairMessages(foreign, { tail: "finished", provider: "gemini" }).repairs.map((r) => r.code)).not.toContain(
      "T",
    );
  });
});
