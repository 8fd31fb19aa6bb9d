// Pattern Q: an Anthropic server tool's block without its other half: a server_tool_use whose result never came (a
// stream cut off, or a client that drops that result block), or a result whose use is gone.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { calls, human, result, shape } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const use = (id: string) => ({ type: "server_tool_use", id, name: "web_search", input: { query: "weather" } });
const found = (id: string) => ({
  type: "web_search_tool_result",
  tool_use_id: id,
  content: [{ type: "web_search_result", url: "https://example.com", title: "Weather", encrypted_content: "e" }],
});
const thinking = { type: "thinking", thinking: "Search first.", signature: "sig-1" };
const text = { type: "text", text: "It is sunny." };
const reply = (content: unknown[]) => new AIMessage({ id: "a1", content: content as never });

describe("pattern Q: an unpaired server tool block", () => {
  it("drops a use whose result never came, whole, and keeps every other block in place", () => {
    const cut = reply([thinking, use("srvtoolu_1")]);
    const broken = [human("h1"), cut, human("h2")];
    expect(providerError("anthropic", broken)).toMatch(
      /`web_search` tool use with id `srvtoolu_1` was found without a corresponding `web_search_tool_result` block/,
    );

    const { messages, repairs } = repairMessages(broken);
    expect((messages[1] as AIMessage).content).toEqual([thinking]);
    // The signed thinking block goes out as the very object stored.
    expect(((messages[1] as AIMessage).content as unknown[])[0]).toBe(thinking);
    expect(repairs[0]).toMatchObject({
      code: "Q",
      kind: "unpaired-server-tool-block",
      action: "rewritten",
      original: cut,
    });
    expectAcceptedByAllProviders(messages);
  });

  it("drops a result whose use is gone", () => {
    const broken = [human("h1"), reply([found("srvtoolu_9"), text]), human("h2")];
    expect(providerError("anthropic", broken)).toMatch(/Each `web_search_tool_result` block must have a corresponding/);
    const { messages } = repairMessages(broken);
    expect((messages[1] as AIMessage).content).toEqual([text]);
    expectAcceptedByAllProviders(messages);
  });

  it("removes a reply that held nothing but the unpaired use, and closes the turn it leaves open", () => {
    const cut = reply([use("srvtoolu_1")]);
    const { messages, repairs } = repairMessages([human("h1"), cut, human("h2")]);
    expect(shape(messages)).toEqual(["human:h1", "ai:sanitizer-reply-h1", "human:h2", "ai:sanitizer-reply-h2"]);
    expect(repairs[0]).toMatchObject({ code: "Q", action: "removed", message: cut });
  });

  it("keeps a finished use with its result, and one answered in the reply after a client tool's result", () => {
    const finished = [human("h1"), reply([thinking, use("srvtoolu_1"), found("srvtoolu_1"), text])];
    expect(repairMessages(finished).messages).toBe(finished);

    const withClientTool = new AIMessage({
      id: "a1",
      content: [use("srvtoolu_2"), { type: "tool_use", id: "c1", name: "tool_c1", input: {} }] as never,
      tool_calls: [{ id: "c1", name: "tool_c1", args: {}, type: "tool_call" }],
    });
    const continued = new AIMessage({ id: "a2", content: [found("srvtoolu_2"), text] as never });
    const deferred = [human("h1"), withClientTool, result("t1", "c1"), continued];
    expect(providerError("anthropic", [...deferred, human("h2")])).toBeUndefined();
    expect(repairMessages(deferred).messages).toBe(deferred);
  });

  it("leaves a use pending where a model request ends: the API runs it with the client tool's results", () => {
    const pending = new AIMessage({
      id: "a1",
      content: [use("srvtoolu_2"), { type: "tool_use", id: "c1", name: "tool_c1", input: {} }] as never,
      tool_calls: [{ id: "c1", name: "tool_c1", args: {}, type: "tool_call" }],
    });
    const request = [human("h1"), pending, result("t1", "c1")];
    expect(providerError("anthropic", request)).toBeUndefined();
    expect(repairMessages(request, { tail: "request" }).messages).toBe(request);
    // Followed by new input instead, the use is one the API will never run.
    const { messages, repairs } = repairMessages(request);
    expect(repairs.map((r) => r.code)).toEqual(["Q", "C"]);
    expectAcceptedByAllProviders([...messages, human("h2")]);
  });

  it("drops a use and a result split over two replies in a row (a paused turn and its continuation), which a marker between them would part", () => {
    const paused = reply([use("srvtoolu_1")]);
    const continued = new AIMessage({ id: "a2", content: [found("srvtoolu_1"), text] as never });
    for (const provider of [undefined, "anthropic"] as const) {
      const first = repairMessages([human("h1"), paused, continued, human("h2")], { provider });
      expect(first.repairs.filter((r) => r.code === "Q").map((r) => r.action)).toEqual(["removed", "rewritten"]);
      expect(repairMessages(first.messages, { provider }).repairs).toEqual([]);
    }
  });

  it("keeps the calls of a reply it rewrites", () => {
    const mixed = new AIMessage({
      id: "a1",
      content: [use("srvtoolu_1"), { type: "tool_use", id: "c1", name: "tool_c1", input: {} }] as never,
      tool_calls: [{ id: "c1", name: "tool_c1", args: {}, type: "tool_call" }],
    });
    const { messages } = repairMessages([
      human("h1"),
      mixed,
      result("t1", "c1"),
      calls("a2", "c2"),
      result("t2", "c2"),
    ]);
    expect((messages[1] as AIMessage).tool_calls).toEqual(mixed.tool_calls);
    expect(shape(messages).slice(0, 3)).toEqual(["human:h1", "ai:a1", "tool:t1>c1"]);
  });
});
