// What an app with the OpenTelemetry SDK sees (docs/observability.md): real graphs, a real saver and the SDK's
// in-memory exporters, no option set (the global providers) unless the test says otherwise.
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { metrics } from "@opentelemetry/api";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { sanitizeGraph, SanitizingCheckpointer } from "../../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../../src/middleware/index.js";
import { buildAgent, keepFirstAndLastThree } from "../../support/graphs/agents.js";
import { reactGraph } from "../../support/graphs/react-graph.js";
import { agentModel, cancelFirstTurn, FIRST_QUESTION, LOOKUP_RESULT } from "../../support/graphs/scenarios.js";
import { inMemoryMetrics, inMemoryTraces, total, type Point } from "../../support/telemetry.js";

const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
const config = { configurable: { thread_id: "t" }, durability: "sync" as const };
const newMessage = (text: string) => ({ messages: [new HumanMessage(text)] });

const READS = "checkpoint_sanitizer.reads";
const REPAIRS = "checkpoint_sanitizer.repairs";
const DURATION = "checkpoint_sanitizer.read.duration";
const OUTCOME = "checkpoint_sanitizer.read.outcome";

/** A thread whose first turn was cancelled while a tool ran (its calls unanswered), on the raw saver. */
async function cancelledThread() {
  const saver = new MemorySaver();
  await cancelFirstTurn(saver, "during-tools", "t");
  return saver;
}

const agent = (saver: MemorySaver) => sanitizeGraph(reactGraph({ model: agentModel("bedrock"), tools }).compile(saver));

const reads = (points: Point[]) => points.filter((p) => p.metric === READS);

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  metrics.disable();
});

function globalMetrics() {
  const sdk = inMemoryMetrics();
  sdk.register();
  cleanup.push(sdk.shutdown);
  return sdk;
}

describe("OpenTelemetry metrics", () => {
  it("a cancelled run, then a new message through sanitizeGraph: exactly one repaired read, with its pattern codes", async () => {
    const saver = await cancelledThread();
    const sdk = globalMetrics();
    await agent(saver).invoke(newMessage("Thanks, and tomorrow?"), config);
    const points = await sdk.points();
    expect(total(points, READS, { [OUTCOME]: "repaired" })).toBe(1);
    const repaired = reads(points).find((p) => p.attributes[OUTCOME] === "repaired")!;
    expect(repaired.attributes).toEqual({
      "checkpoint_sanitizer.entry_point": "checkpointer",
      "checkpoint_sanitizer.operation": "getTuple",
      "checkpoint_sanitizer.saver": "MemorySaver",
      "checkpoint_sanitizer.provider": "none",
      "checkpoint_sanitizer.tail": "stopped",
      [OUTCOME]: "repaired",
      "checkpoint_sanitizer.read.patterns": "B,C",
    });
    // Both calls of the cancelled turn were answered by a placeholder, and a marker reply closed the turn.
    const repairs = points.filter((p) => p.metric === REPAIRS);
    const repair = (code: string, applies: string) =>
      expect.objectContaining({
        "checkpoint_sanitizer.repair.code": code,
        "checkpoint_sanitizer.repair.action": "inserted",
        "checkpoint_sanitizer.repair.applies": applies,
        "checkpoint_sanitizer.tail": "stopped",
      });
    expect(repairs.map((p) => [p.attributes, p.value])).toEqual([
      [repair("B", "anywhere"), 2],
      [repair("C", "leftovers,provider"), 1],
    ]);
    // One duration per read, clean or repaired; no thread id anywhere.
    expect(total(points, DURATION)).toBe(total(points, READS));
    expect(JSON.stringify(points)).not.toContain('"t"');
  });

  it("a delta channel (MessagesDeltaValue): the repaired read is the one of its history", async () => {
    const saver = new MemorySaver();
    await cancelFirstTurn(saver, "during-tools", "t", { field: "MessagesDeltaValue" });
    const sdk = globalMetrics();
    const graph = reactGraph({ model: agentModel("bedrock"), tools, field: "MessagesDeltaValue" }).compile(saver);
    await sanitizeGraph(graph).invoke(newMessage("Thanks, and tomorrow?"), config);
    const points = await sdk.points();
    const repaired = reads(points).filter((p) => p.attributes[OUTCOME] === "repaired");
    expect(repaired.map((p) => [p.attributes["checkpoint_sanitizer.operation"], p.value])).toEqual([
      ["getDeltaChannelHistory", 1],
    ]);
    expect(repaired[0]!.attributes["checkpoint_sanitizer.read.patterns"]).toBe("B,C");
  });

  it("a clean turn records only clean reads", async () => {
    const saver = await cancelledThread();
    await agent(saver).invoke(newMessage("Thanks, and tomorrow?"), config);
    const sdk = globalMetrics();
    await agent(saver).invoke(newMessage("And the day after?"), config);
    const points = await sdk.points();
    expect(total(points, READS)).toBeGreaterThan(0);
    expect(total(points, READS, { [OUTCOME]: "repaired" })).toBe(0);
    expect(total(points, REPAIRS)).toBe(0);
  });

  it("records to the meterProvider given, and nothing with telemetry: false", async () => {
    const saver = await cancelledThread();
    const own = inMemoryMetrics();
    const global = globalMetrics();
    cleanup.push(own.shutdown);
    const read = (telemetry: false | { meterProvider: typeof own.provider }) =>
      new SanitizingCheckpointer(saver, { telemetry, policy: "repair" }).getTuple(config);
    await read(false);
    expect(await own.points()).toEqual([]);
    await read({ meterProvider: own.provider });
    expect(total(await own.points(), READS, { [OUTCOME]: "repaired" })).toBe(1);
    expect(await global.points()).toEqual([]);
  });

  it("the middleware records each model request, and the one a trim broke as repaired, under its entry point", async () => {
    const sdk = globalMetrics();
    const agent = buildAgent("createAgent", {
      model: agentModel("bedrock"),
      checkpointer: new MemorySaver(),
      middleware: [keepFirstAndLastThree, sanitizeMessagesMiddleware()],
    });
    await agent.invoke(newMessage(FIRST_QUESTION), config);
    await agent.invoke(newMessage("Thanks, and tomorrow?"), config);
    const points = await sdk.points();
    const requests = { "checkpoint_sanitizer.entry_point": "middleware", "checkpoint_sanitizer.tail": "request" };
    // Two model calls in the first turn (tools between them), one in the second, whose request the trim broke.
    expect(total(points, READS, requests)).toBe(3);
    expect(total(points, READS, { ...requests, [OUTCOME]: "repaired" })).toBe(1);
    expect(reads(points).find((p) => p.attributes[OUTCOME] === "repaired")!.attributes).toEqual({
      ...requests,
      "checkpoint_sanitizer.operation": "wrapModelCall",
      "checkpoint_sanitizer.provider": "bedrock",
      [OUTCOME]: "repaired",
      "checkpoint_sanitizer.read.patterns": "D",
    });
  });

  it("the doctor records its reads under its own entry point, with the saver it opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "doctor-telemetry-"));
    const file = join(dir, "threads.sqlite");
    const saver = SqliteSaver.fromConnString(file);
    cleanup.push(async () => (saver.db.close(), rmSync(dir, { recursive: true, force: true })));
    await cancelFirstTurn(saver, "during-tools", "t");
    const sdk = globalMetrics();
    await main(["doctor", "--sqlite", file, "--json"], { stdout: () => {}, stderr: () => {}, isTTY: false });
    const points = await sdk.points();
    expect(total(points, READS)).toBe(1);
    expect(reads(points)[0]!.attributes).toMatchObject({
      "checkpoint_sanitizer.entry_point": "doctor",
      "checkpoint_sanitizer.saver": "SqliteSaver",
      "checkpoint_sanitizer.read.patterns": "B,C",
    });
  });

  it("rejects a telemetry option it cannot use, naming the field and what it takes", () => {
    const bad = (telemetry: unknown) => () => new SanitizingCheckpointer(new MemorySaver(), { telemetry } as never);
    expect(bad({ meterProvider: {} })).toThrow(
      "telemetry.meterProvider must be an OpenTelemetry MeterProvider (with getMeter), got an object without getMeter.",
    );
    expect(bad({ tracerProvider: "otel" })).toThrow(
      'telemetry.tracerProvider must be an OpenTelemetry TracerProvider (with getTracer), got "otel".',
    );
    expect(bad({ threadIds: "hash" })).toThrow(
      'telemetry.threadIds must be one of "as-stored", "hashed", "omitted", got "hash".',
    );
    expect(bad({ tracer: {} })).toThrow(
      'telemetry must be true, false or { meterProvider?, tracerProvider?, threadIds? }, got a field "tracer".',
    );
  });
});

describe("OpenTelemetry trace events", () => {
  it("a repaired read adds one event to its getTuple span, with codes and counts and no content", async () => {
    const saver = await cancelledThread();
    const traces = inMemoryTraces();
    cleanup.push(traces.shutdown);
    await traces.tracer.startActiveSpan("POST /threads/t/runs", async (span) => {
      await agent(saver).invoke(newMessage("Thanks, and tomorrow?"), config);
      await agent(saver).invoke(newMessage("And the day after?"), config);
      span.end();
    });
    const withEvents = traces.spans().filter((s) => s.events.length > 0);
    expect(withEvents.map((s) => s.name)).toEqual(["checkpoint_sanitizer.getTuple"]);
    expect(withEvents[0]!.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        "checkpoint_sanitizer.repair",
        expect.objectContaining({
          "checkpoint_sanitizer.operation": "getTuple",
          "checkpoint_sanitizer.tail": "stopped",
          "checkpoint_sanitizer.repair.codes": ["B", "C"],
          "checkpoint_sanitizer.repair.counts": [2, 1],
          "checkpoint_sanitizer.repair.count": 3,
        }),
      ],
    ]);
    expect(JSON.stringify(withEvents[0]!.events)).not.toMatch(/Paris|Seoul|tomorrow/);
  });
});
