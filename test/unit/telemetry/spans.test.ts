// A span per checkpointer operation (docs/observability.md#spans), as an app with the OpenTelemetry SDK sees it:
// real graphs on MemorySaver and SQLite, the SDK's in-memory exporter, the global providers unless the test says
// otherwise. Every backend, and outages of the stores with servers, are in test/checkpointer/operation-spans.test.ts.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver } from "@langchain/langgraph";
import { type SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { sanitizeGraph, SanitizingCheckpointer, type TelemetryOption } from "../../../src/index.js";
import { hashThreadId } from "../../../src/telemetry/thread-ids.js";
import { traceOperation } from "../../../src/telemetry/operation-spans.js";
import { reactGraph } from "../../support/graphs/react-graph.js";
import { agentModel, cancelFirstTurn, LOOKUP_RESULT } from "../../support/graphs/scenarios.js";
import { inMemoryTracerProvider, inMemoryTraces, leaked, spanTexts } from "../../support/telemetry.js";
import { sqliteFactory } from "../../support/savers/savers.js";

const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
const config = (thread = "t") => ({ configurable: { thread_id: thread }, durability: "sync" as const });
const newMessage = (text: string) => ({ messages: [new HumanMessage(text)] });
const A = (name: string) => `checkpoint_sanitizer.${name}`;

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function globalTraces() {
  const traces = inMemoryTraces();
  cleanup.push(traces.shutdown);
  return traces;
}

const agent = (saver: MemorySaver | SqliteSaver, options?: { telemetry?: TelemetryOption }) =>
  sanitizeGraph(reactGraph({ model: agentModel("bedrock"), tools }).compile(saver), options);

/** A thread whose first turn was cancelled while its tools ran, on the raw saver. */
async function cancelledThread(thread = "t") {
  const saver = new MemorySaver();
  await cancelFirstTurn(saver, "during-tools", thread);
  return saver;
}

const named = (spans: readonly ReadableSpan[], operation: string) => spans.filter((s) => s.name === A(operation));

/** Every text of the conversation a model or a tool wrote or read: contents and tool call arguments. */
function messageTexts(messages: readonly BaseMessage[]): string[] {
  return messages
    .flatMap((message) => [
      ...(typeof message.content === "string" ? [message.content] : message.content.map((b) => JSON.stringify(b))),
      ...((message as { tool_calls?: { args: Record<string, unknown> }[] }).tool_calls ?? []).flatMap((call) =>
        Object.values(call.args).map(String),
      ),
    ])
    .filter((text) => text.trim().length >= 4);
}

describe("a span per checkpointer operation", () => {
  it("a turn on a cancelled thread: getTuple, put and putWrites spans under the app's span, with what each did", async () => {
    const saver = await cancelledThread();
    const traces = globalTraces();
    await traces.tracer.startActiveSpan("POST /threads/t/runs", async (span) => {
      await agent(saver).invoke(newMessage("Thanks, and tomorrow?"), config());
      span.end();
    });
    const spans = traces.spans();
    const app = spans.find((s) => s.name === "POST /threads/t/runs")!;
    const ours = spans.filter((s) => s !== app);
    expect(new Set(ours.map((s) => s.name))).toEqual(new Set([A("getTuple"), A("put"), A("putWrites")]));
    for (const span of ours) {
      expect(span.parentSpanContext?.spanId).toBe(app.spanContext().spanId);
      expect(span.instrumentationScope.name).toBe("langgraph-checkpoint-sanitizer");
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toMatchObject({ [A("saver")]: "MemorySaver", [A("thread_id")]: "t" });
    }
    // The one read of the turn repaired the cancelled one, and its repair event is on that read's span.
    const [read] = named(ours, "getTuple");
    expect(read!.attributes).toMatchObject({
      [A("operation")]: "getTuple",
      [A("checkpoint_ns")]: "",
      [A("checkpoints")]: 1,
      [A("messages")]: 5,
      [A("tail")]: "stopped",
      [A("read.outcome")]: "repaired",
      [A("read.patterns")]: "B,C",
      [A("repair.count")]: 3,
    });
    expect(read!.events.map((e) => e.name)).toEqual([A("repair")]);
    const stored = (await saver.getTuple(config()))!;
    const [input, ...loop] = named(ours, "put");
    expect(input!.attributes).toMatchObject({ [A("source")]: "input", [A("messages")]: 5, [A("channels.updated")]: 2 });
    expect(loop.at(-1)!.attributes).toMatchObject({
      [A("source")]: "loop",
      [A("checkpoint_id")]: stored.checkpoint.id,
      [A("step")]: stored.metadata!.step,
      [A("messages")]: 7,
    });
    expect(named(ours, "putWrites").map((s) => s.attributes[A("writes")])).toEqual([2, 1]);
    expect(named(ours, "putWrites")[1]!.attributes[A("write.channels")]).toEqual(["messages"]);
  });

  it("no span holds a message's content, in any attribute, event or status", async () => {
    const saver = await cancelledThread();
    const traces = globalTraces();
    const graph = agent(saver);
    await graph.invoke(newMessage("Thanks, and tomorrow?"), config());
    await graph.invoke(newMessage("What is the weather in Paris and Seoul?"), config());
    for await (const state of graph.getStateHistory(config())) expect(state).toBeDefined();
    const texts = messageTexts((await graph.getState(config())).values.messages as BaseMessage[]);
    expect(texts).toEqual(expect.arrayContaining(["Thanks, and tomorrow?", "Paris: 15°C", LOOKUP_RESULT, "Paris"]));
    const spans = traces.spans();
    expect(spans.length).toBeGreaterThan(10);
    // The check finds a text where there is one: a span's attribute value and the repair events' are read.
    expect(leaked(spans, ["B,C", "MemorySaver", "checkpoint_sanitizer.repair"])).not.toEqual([]);
    expect(spanTexts(spans)).toContain("B,C");
    expect(leaked(spans, texts)).toEqual([]);
  });

  it("the store client's own spans (its instrumentation) nest under the operation's span", async () => {
    const traces = globalTraces();
    /** A saver as an app instruments it: each read in a span of its own. */
    class InstrumentedSaver extends MemorySaver {
      override getTuple(config: RunnableConfig) {
        return traces.tracer.startActiveSpan("SELECT checkpoint", async (span) => {
          try {
            return await super.getTuple(config);
          } finally {
            span.end();
          }
        });
      }
    }
    const saver = new InstrumentedSaver();
    await cancelFirstTurn(saver, "during-tools", "t");
    const before = traces.spans().length;
    await new SanitizingCheckpointer(saver, { policy: "repair" }).getTuple({ configurable: { thread_id: "t" } });
    const spans = traces.spans().slice(before);
    const [read] = named(spans, "getTuple");
    const store = spans.filter((s) => s.name === "SELECT checkpoint");
    // The read, and the parent checkpoint the repaired tail's stranded results are looked up in.
    expect(store.length).toBeGreaterThan(0);
    for (const span of store) expect(span.parentSpanContext?.spanId).toBe(read!.spanContext().spanId);
  });

  it("list: a span per iteration, ended when it is abandoned, counting the checkpoints it yielded", async () => {
    const saver = await cancelledThread();
    const traces = globalTraces();
    const checkpointer = new SanitizingCheckpointer(saver);
    let taken = 0;
    for await (const tuple of checkpointer.list({ configurable: { thread_id: "t" } }, { limit: 5 })) {
      expect(tuple).toBeDefined();
      if (++taken === 2) break;
    }
    const all = [];
    for await (const tuple of checkpointer.list({ configurable: { thread_id: "t" } })) all.push(tuple);
    const [abandoned, complete] = named(traces.spans(), "list");
    expect(abandoned!.attributes).toMatchObject({
      [A("list.limit")]: 5,
      [A("list.complete")]: false,
      [A("checkpoints")]: 2,
      [A("tail")]: "resumable",
    });
    expect(complete!.attributes).toMatchObject({ [A("list.complete")]: true, [A("checkpoints")]: all.length });
    expect(all.length).toBeGreaterThan(2);
  });

  it("a delta channel's history read and a deleteThread have spans too", async () => {
    const saver = new MemorySaver();
    await cancelFirstTurn(saver, "during-tools", "t", { field: "MessagesDeltaValue" });
    const traces = globalTraces();
    const graph = reactGraph({ model: agentModel("bedrock"), tools, field: "MessagesDeltaValue" }).compile(saver);
    const sanitized = sanitizeGraph(graph);
    await sanitized.invoke(newMessage("Thanks, and tomorrow?"), config());
    await (sanitized.checkpointer as SanitizingCheckpointer).deleteThread("t");
    const histories = named(traces.spans(), "getDeltaChannelHistory");
    expect(histories.length).toBeGreaterThan(0);
    expect(histories[0]!.attributes).toMatchObject({
      [A("write.channels")]: ["messages"],
      [A("read.patterns")]: "B,C",
      [A("tail")]: "stopped",
    });
    // Returned as a seed holding the repaired list: the cancelled turn's 3 messages, a placeholder result and a marker.
    expect(histories[0]!.attributes).toMatchObject({ [A("writes")]: 0, [A("messages")]: 5 });
    expect(named(traces.spans(), "deleteThread").map((s) => s.attributes)).toEqual([
      { [A("operation")]: "deleteThread", [A("saver")]: "MemorySaver", [A("thread_id")]: "t" },
    ]);
    expect(await saver.getTuple(config())).toBeUndefined();
  });
});

describe("turning spans on and off, and thread ids", () => {
  it("telemetry: false records nothing; { tracerProvider } records there and not to the global provider", async () => {
    const saver = await cancelledThread();
    const global = globalTraces();
    const own = inMemoryTracerProvider();
    cleanup.push(own.shutdown);
    await agent(saver, { telemetry: false }).invoke(newMessage("Thanks, and tomorrow?"), config());
    expect(global.spans()).toEqual([]);
    await agent(saver, { telemetry: { tracerProvider: own.provider } }).invoke(newMessage("And then?"), config());
    expect(global.spans()).toEqual([]);
    expect(named(own.spans(), "getTuple")).toHaveLength(1);
    expect(named(own.spans(), "put").length).toBeGreaterThan(0);
  });

  it("without an SDK registered, nothing is recorded and operations work as before", async () => {
    const saver = await cancelledThread();
    const { messages } = await agent(saver).invoke(newMessage("Thanks, and tomorrow?"), config());
    expect(messages.at(-1)!.content).toBe("Happy to help with that.");
    const traces = globalTraces();
    expect(traces.spans()).toEqual([]);
  });

  it("threadIds: hashed records the id's 64-bit FNV-1a, omitted records none, on every span", async () => {
    // FNV-1a 64 of "a", as the algorithm's reference vectors give it.
    expect(hashThreadId("a")).toBe("af63dc4c8601ec8c");
    expect(hashThreadId("")).toBe("cbf29ce484222325");
    const thread = "user-4711@example.com";
    const saver = await cancelledThread(thread);
    const traces = globalTraces();
    await agent(saver, { telemetry: { threadIds: "hashed" } }).invoke(newMessage("Thanks"), config(thread));
    const hashed = [...traces.spans()];
    expect(hashed.length).toBeGreaterThan(2);
    expect(new Set(hashed.map((s) => s.attributes[A("thread_id")]))).toEqual(new Set([hashThreadId(thread)]));
    await agent(saver, { telemetry: { threadIds: "omitted" } }).invoke(newMessage("And?"), config(thread));
    const omitted = traces.spans().slice(hashed.length);
    expect(omitted.length).toBeGreaterThan(2);
    expect(omitted.every((s) => !(A("thread_id") in s.attributes))).toBe(true);
    expect(leaked(traces.spans(), [thread, "user-4711"])).toEqual([]);
  });

  it("the doctor's reads are counted by the metrics, not traced", async () => {
    const saver = await sqliteFactory.create();
    cleanup.push(() => sqliteFactory.destroy(saver));
    await cancelFirstTurn(saver, "during-tools", "t");
    const traces = globalTraces();
    const file = (saver as SqliteSaver).db.name;
    await main(["doctor", "--sqlite", file, "--json"], { stdout: () => {}, stderr: () => {}, isTTY: false });
    expect(traces.spans()).toEqual([]);
  });
});

describe("a failing operation", () => {
  it("its span records the error and ERROR status, and the caller gets the error unchanged", async () => {
    const saver = await sqliteFactory.create();
    await cancelFirstTurn(saver, "during-tools", "t");
    (saver as SqliteSaver).db.close();
    cleanup.push(() => sqliteFactory.destroy(saver).catch(() => {}));
    const traces = globalTraces();
    const checkpointer = new SanitizingCheckpointer(saver);
    const raw = await saver.getTuple({ configurable: { thread_id: "t" } }).catch((e: unknown) => e);
    const error = await checkpointer.getTuple({ configurable: { thread_id: "t" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ name: (raw as Error).name, message: (raw as Error).message });
    const [span] = named(traces.spans(), "getTuple");
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: (raw as Error).message });
    expect(span!.attributes["error.type"]).toBe("TypeError");
    expect(span!.events.map((e) => [e.name, e.attributes?.["exception.message"]])).toEqual([
      ["exception", (raw as Error).message],
    ]);
  });

  it("a checkpoint that no longer parses: the parse error's message, which quotes the stored text, is not recorded", async () => {
    const saver = await cancelledThread();
    const stored = saver.storage.t![""]!;
    const latest = Object.keys(stored).sort().at(-1)!;
    stored[latest]![0] = new TextEncoder().encode("Paris: 15°C, a secret");
    const traces = globalTraces();
    const error = await new SanitizingCheckpointer(saver)
      .getTuple({ configurable: { thread_id: "t" } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    const [span] = named(traces.spans(), "getTuple");
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.attributes["error.type"]).toBe((error as Error).constructor.name);
    expect((error as Error).message).toContain("Paris");
    expect(leaked(traces.spans(), ["Paris", "secret"])).toEqual([]);
  });

  it("traceOperation, for a retention batch: a span with its attributes and counts, the error recorded", async () => {
    const traces = globalTraces();
    await traceOperation("prune.batch", { [A("batch.threads")]: 2 }, async (span) => {
      span?.setAttributes({ [A("batch.removed")]: 7 });
    });
    const failure = new Error("store went away");
    await expect(traceOperation("prune.batch", {}, () => Promise.reject(failure))).rejects.toBe(failure);
    await traceOperation("prune.batch", {}, async (span) => expect(span).toBeUndefined(), false);
    const spans = named(traces.spans(), "prune.batch");
    expect(spans.map((s) => [s.attributes, s.status.code])).toEqual([
      [{ [A("operation")]: "prune.batch", [A("batch.threads")]: 2, [A("batch.removed")]: 7 }, SpanStatusCode.UNSET],
      [{ [A("operation")]: "prune.batch", "error.type": "Error" }, SpanStatusCode.ERROR],
    ]);
  });
});
