// Pattern W: a ToolMessage with no text, which Bedrock rejects: under Bedrock's rules only.
import { ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedUnder } from "../../support/oracle/expect-accepted.js";
import { calls, human, reply, result } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const empty = (content: string | []) =>
  new ToolMessage({ id: "t1", content, tool_call_id: "c1", name: "tool_c1", status: "error" });

describe("pattern W: an empty tool result", () => {
  it.each([
    ["an empty string", ""],
    ["blank text", "  "],
    ["no content blocks", [] as []],
  ])("gives a result of %s a marker text under Bedrock's rules, keeping its call and status", (_, content) => {
    const stored = empty(content);
    const broken = [human("h1"), calls("a1", "c1"), stored, reply("a2"), human("h2")];
    expect(providerError("bedrock", broken)).toMatch(/non-empty content/);
    expect(providerError("openai", broken)).toBeUndefined();

    const { messages, repairs } = repairMessages(broken, { provider: "bedrock" });
    const copy = messages[2] as ToolMessage;
    expect(copy).toMatchObject({
      id: "t1",
      tool_call_id: "c1",
      status: "error",
      content: "[The tool returned no output.]",
    });
    expect(repairs[0]).toMatchObject({ code: "W", kind: "empty-tool-result", action: "rewritten", original: stored });
    expectAcceptedUnder("bedrock", messages);
  });

  it("renames and fills one result in one copy", () => {
    const stored = new ToolMessage({ id: "t1", content: "", tool_call_id: "", name: "tool" });
    const { messages, repairs } = repairMessages([human("h1"), calls("a1", ""), stored, reply("a2")], {
      provider: "bedrock",
    });
    expect(repairs.map((r) => r.code)).toEqual(["I", "I", "W"]);
    expect(messages[2]).toMatchObject({ content: "[The tool returned no output.]" });
    expect((messages[2] as ToolMessage).tool_call_id).not.toBe("");
  });

  it("fills a result recovered empty from pendingWrites (N), as it fills a stored one", () => {
    const stranded = new ToolMessage({ id: "t1", content: "", tool_call_id: "c1", name: "tool_c1" });
    const { messages, repairs } = repairMessages([human("h1"), calls("a1", "c1")], {
      provider: "bedrock",
      recoveredResults: [stranded],
    });
    expect(messages[2]).toMatchObject({ tool_call_id: "c1", content: "[The tool returned no output.]" });
    expect(repairs.slice(0, 2)).toMatchObject([
      { code: "N", action: "inserted", original: stranded },
      { code: "W", action: "inserted", original: stranded },
    ]);
    expectAcceptedUnder("bedrock", [...messages, human("h2")]);
  });

  it("leaves an empty result alone for the providers that take it, and by default", () => {
    const history = [human("h1"), calls("a1", "c1"), result("t1", "c1", ""), reply("a2")];
    for (const provider of [undefined, "openai", "anthropic", "gemini", "mistral"] as const) {
      expect(repairMessages(history, { provider }).messages).toBe(history);
    }
  });
});
