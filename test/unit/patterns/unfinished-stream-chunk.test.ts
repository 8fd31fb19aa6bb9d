// Pattern M: a reply saved mid-stream, with content blocks only a stream carries.
import { AIMessage, AIMessageChunk } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { human, result, shape, streamedCall } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

describe("pattern M: a reply saved mid-stream", () => {
  it("sends a plain copy without the stream's blocks; its call stays and gets a placeholder", () => {
    const chunk = streamedCall("a1", "c1");
    const broken = [human("h1"), chunk, human("h2")];
    expect(providerError("bedrock", broken)).toBe("Unsupported content block type: input_json_delta");

    const { messages, repairs } = repairMessages(broken);
    expect(shape(messages)).toEqual([
      "human:h1",
      "ai:a1",
      "tool:sanitizer-result-a1-c1>c1",
      "ai:sanitizer-reply-h1",
      "human:h2",
      "ai:sanitizer-reply-h2",
    ]);
    const copy = messages[1] as AIMessage;
    expect(copy).toBeInstanceOf(AIMessage);
    expect(copy).not.toBeInstanceOf(AIMessageChunk);
    expect(copy.content).toEqual([{ type: "text", text: "Let me check. ", index: 0 }]);
    expect(copy.tool_calls).toEqual(chunk.tool_calls);
    expect(repairs[0]).toMatchObject({ code: "M", kind: "unfinished-stream-chunk", action: "rewritten", index: 1 });
    expect(repairs[0]!.original).toBe(chunk);
    expectAcceptedByAllProviders(messages);
  });

  it("keeps a thinking block first, and a plain object's copy loses its call chunks", () => {
    const stored = {
      type: "ai",
      id: "a1",
      content: [
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "tool_call_chunk", id: "c1", name: "search", args: '{"q', index: 1 },
        { type: "text", text: "Looking." },
      ],
      tool_calls: [{ id: "c1", name: "search", args: {}, type: "tool_call" }],
      tool_call_chunks: [{ id: "c1", name: "search", args: '{"q', index: 1 }],
    };
    const { messages } = repairMessages([human("h1"), stored, result("t1", "c1")], { tail: "request" });
    const copy = messages[1] as Record<string, unknown>;
    expect((copy.content as { type: string }[]).map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(copy).not.toHaveProperty("tool_call_chunks");
    expect(messages[2]).toMatchObject({ tool_call_id: "c1" });
  });

  it("repairs it at the end even when the tail is preserved: no run executes a call that never finished", () => {
    const chunk = streamedCall("a1", "c1");
    const { messages, repairs } = repairMessages([human("h1"), chunk], { tail: "resumable" });
    expect(shape(messages)).toEqual(["human:h1", "ai:a1", "tool:sanitizer-result-a1-c1>c1", "ai:sanitizer-reply-h1"]);
    expect(repairs.map((r) => r.code)).toEqual(["M", "B", "C"]);
  });

  it("reads call chunks whose arguments are cut off as a reply saved mid-stream, and complete ones as finished", () => {
    const cut = new AIMessageChunk({
      id: "a1",
      content: "",
      tool_call_chunks: [{ id: "c1", name: "search", args: '{"city": "Pa', index: 0, type: "tool_call_chunk" }],
    });
    expect(repairMessages([human("h1"), cut], { tail: "resumable" }).repairs.map((r) => r.code)).toEqual([
      "M",
      "B",
      "C",
    ]);
    const done = new AIMessageChunk({
      id: "a1",
      content: "",
      tool_call_chunks: [{ id: "c1", name: "search", args: '{"city": "Paris"}', index: 0, type: "tool_call_chunk" }],
    });
    const finished = [human("h1"), done];
    expect(repairMessages(finished, { tail: "resumable" }).messages).toBe(finished);
  });

  it("leaves a reply streamed to its end as stored: ChatAnthropic keeps each call's whole input_json_delta", () => {
    // What ChatAnthropic stores for a streamed call: the tool_use block, then its input delta at the same index.
    const streamed = new AIMessage({
      id: "a1",
      content: [
        { type: "text", text: "Asking first. ", index: 0 },
        { type: "tool_use", id: "c1", name: "confirm", input: "", index: 1 },
        { type: "input_json_delta", input: '{"to":"bob"}', index: 1 },
      ] as never,
      tool_calls: [{ id: "c1", name: "confirm", args: { to: "bob" }, type: "tool_call" }],
    });
    const paused = [human("h1"), streamed];
    expect(repairMessages(paused, { tail: "resumable" }).messages).toBe(paused);
    const answered = [human("h1"), streamed, result("t1", "c1"), new AIMessage({ id: "a2", content: "Sent." })];
    expect(repairMessages(answered).repairs).toEqual([]);

    const cut = new AIMessage({
      ...streamed,
      content: [
        { type: "tool_use", id: "c1", name: "confirm", input: "", index: 1 },
        { type: "input_json_delta", input: '{"to":"b', index: 1 },
      ] as never,
    });
    expect(repairMessages([human("h1"), cut], { tail: "resumable" }).repairs.map((r) => r.code)).toEqual([
      "M",
      "B",
      "C",
    ]);
  });
});
