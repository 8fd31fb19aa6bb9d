// A broken history that arrives in the run's input, not the store: the AI SDK's transport sends the whole transcript
// to a graph with no thread, and CopilotKit can send a partial reply it kept after a Stop. sanitizeGraph repairs the
// input's messages as a read repairs a stored history, reports them as a read does, and leaves a clean input alone.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import { context, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sanitizeGraph, type RepairEvent } from "../../../src/index.js";
import { buildAgent, calmTools } from "../../support/graphs/agents.js";
import { StrictChatModel } from "../../support/graphs/strict-chat-model.js";
import { PROVIDER_PROFILES, type ProviderProfile } from "../../support/oracle/provider-rejections.js";
import { inMemoryMetrics, inMemoryTraces } from "../../support/telemetry.js";

/** The AI SDK's `toBaseMessages` output as `RemoteGraph` sends it: role-keyed, no ids. */
const H = (content: string) => ({ content, additional_kwargs: {}, response_metadata: {}, role: "human" });
const A = (content: string, calls: { id: string; name: string; args: Record<string, unknown> }[] = []) => ({
  content,
  tool_calls: calls,
  invalid_tool_calls: [],
  additional_kwargs: {},
  response_metadata: {},
  role: "ai",
});
const CALL = { id: "call_1", name: "search", args: { city: "Paris" } };

/** The AI SDK transport's requests after a Stop mid-tool (in process, the tool part reached `input-available`). */
const AI_SDK_AFTER_STOP = {
  "the next message": [H("What's the weather in Paris?"), A("", [CALL]), H("And tomorrow?")],
  // Its stream adapter puts the dangling call into the next reply again, so the request after holds it twice.
  "the message after, with the call sent again": [
    H("What's the weather in Paris?"),
    A("", [CALL]),
    H("And tomorrow?"),
    A("", [CALL]),
    A("Reply 3"),
    H("ok"),
  ],
};

const model = (profile: ProviderProfile) =>
  new StrictChatModel({ profile, rejectsPrefill: true, script: () => ({ content: "Happy to help with that." }) });

function agent(profile: ProviderProfile, checkpointer?: BaseCheckpointSaver, onRepair?: (e: RepairEvent) => void) {
  const strict = model(profile);
  const built = buildAgent("createAgent", { model: strict, tools: calmTools, checkpointer: checkpointer! });
  return { strict, raw: built, sanitized: () => sanitizeGraph(built, { onRepair }) };
}

describe("a whole transcript sent to a graph without a checkpointer (the AI SDK's LangSmithDeploymentTransport)", () => {
  describe.each(Object.entries(AI_SDK_AFTER_STOP))("%s", (_name, messages) => {
    it.each(PROVIDER_PROFILES)("is rejected raw and answered through sanitizeGraph on %s", async (profile) => {
      const raw = agent(profile);
      await expect(raw.raw.invoke({ messages: structuredClone(messages) }, {})).rejects.toThrow(/400/);
      const events: RepairEvent[] = [];
      const sanitized = agent(profile, undefined, (event) => events.push(event));
      const state = await sanitized.sanitized().invoke({ messages: structuredClone(messages) }, {});
      expect(sanitized.strict.rejections).toEqual([]);
      expect((state.messages as BaseMessage[]).at(-1)?.content).toBe("Happy to help with that.");
      expect(events.map((e) => [e.operation, e.checkpointId, e.channel])).toEqual([["input", "", "messages"]]);
      expect(events[0]!.repairs.map((r) => r.code)).toContain("B");
    });
  });

  it("leaves a clean transcript exactly as sent", async () => {
    const messages = [H("Hi"), A("Hello!"), H("What's new?")];
    const events: RepairEvent[] = [];
    const { strict, sanitized } = agent("anthropic", undefined, (event) => events.push(event));
    await sanitized().invoke({ messages: structuredClone(messages) }, {});
    expect(events).toEqual([]);
    expect(strict.seen[0]!.map((m) => [m.type, m.content])).toEqual([
      ["human", "Hi"],
      ["ai", "Hello!"],
      ["human", "What's new?"],
    ]);
  });
});

describe("a transcript with a partial reply the client kept after a Stop (CopilotKit's, when the snapshot never came)", () => {
  const partial = { id: "run-partial", type: "ai", content: "Let me check. ", tool_calls: [CALL] };

  it.each(PROVIDER_PROFILES)("into a new thread, and into the thread it was stopped on, on %s", async (profile) => {
    // A new thread: nothing stored, the input is the whole history.
    const fresh = agent(profile, new MemorySaver());
    const input = {
      messages: [{ id: "h1", type: "human", content: "What's the weather in Paris?" }, partial, H("And?")],
    };
    await fresh.sanitized().invoke(structuredClone(input), { configurable: { thread_id: "new" } });
    expect(fresh.strict.rejections).toEqual([]);
    // The thread it was stopped on: its store ends on the user's turn, with the model's task pending.
    const saver = new MemorySaver();
    const controller = new AbortController();
    const stopping = new StrictChatModel({
      profile,
      script: () => ({ content: "Let me check. ", toolCalls: [CALL] }),
      onToken: () => controller.abort(),
    });
    const first = buildAgent("createAgent", { model: stopping, tools: calmTools, checkpointer: saver });
    const question = new HumanMessage({ id: "h1", content: "What's the weather in Paris?" });
    const stop = { configurable: { thread_id: "t" }, signal: controller.signal, durability: "sync" };
    await expect(first.invoke({ messages: [question] }, stop)).rejects.toThrow();
    const next = agent(profile, saver);
    const sent = { messages: [partial, { id: "h2", type: "human", content: "And?" }] };
    await expect(next.raw.invoke(structuredClone(sent), { configurable: { thread_id: "t" } })).rejects.toThrow(/400/);
    const again = agent(profile, saver);
    await again.sanitized().invoke(structuredClone(sent), { configurable: { thread_id: "t" } });
    expect(again.strict.rejections).toEqual([]);
    // The partial reply and its call stay, answered, with no marker reply before them.
    const request = again.strict.seen[0]!.map((m) => `${m.type}:${String(m.content).slice(0, 14)}`);
    expect(request).toEqual([
      "human:What's the wea",
      "ai:Let me check. ",
      "tool:[No result was",
      "ai:[No reply was ",
      "human:And?",
    ]);
  });
});

describe("input repairs are reported as a read's", () => {
  const metrics = inMemoryMetrics();
  let traces: ReturnType<typeof inMemoryTraces>;
  beforeAll(() => {
    metrics.register();
    traces = inMemoryTraces();
  });
  afterAll(async () => {
    await metrics.shutdown();
    await traces.shutdown();
  });

  it("counted in the metrics and added to the run's span as an event", async () => {
    const { sanitized } = agent("openai");
    await traces.tracer.startActiveSpan("request", async (span) => {
      await context.with(trace.setSpan(context.active(), span), () =>
        sanitized().invoke({ messages: structuredClone(AI_SDK_AFTER_STOP["the next message"]) }, {}),
      );
      span.end();
    });
    const repaired = (await metrics.points()).filter(
      (p) => p.metric === "checkpoint_sanitizer.reads" && p.attributes["checkpoint_sanitizer.operation"] === "input",
    );
    expect(repaired.map((p) => p.attributes["checkpoint_sanitizer.read.outcome"])).toEqual(["repaired"]);
    const request = traces.spans().find((s) => s.name === "request")!;
    expect(request.events.map((e) => e.name)).toContain("checkpoint_sanitizer.repair");
  });
});
