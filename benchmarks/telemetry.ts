/**
 * What OpenTelemetry adds to a clean 1,000-message getTuple, with the SDK recording to its in-memory exporters: the
 * wrapper with the metrics, or with the spans, against the same wrapper with `telemetry: false`, all around a saver
 * that hands back the already-loaded tuple (as ownCost in run.ts), in interleaved batches. The targets are shares of
 * the read: the raw saver's, and for the spans also the drop-in's (through FastJsonPlusSerializer, several times faster).
 */
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { SanitizingCheckpointer } from "../src/index.js";
import { seed } from "./histories.js";
import { compare, median } from "./stats.js";

const SIZE = 1000;
/** Reads per timed batch: a read costs tens of microseconds, a timer's resolution is not much finer. */
const BATCH = 1000;

export interface TelemetryOverhead {
  /** The raw MemorySaver getTuple of the same thread, in ms. */
  rawMs: number;
  /** The wrapper's own work per read without metrics, and the metrics' addition to it, in µs. */
  offUs: number;
  addedUs: number;
  /** addedUs as a share of the raw read. */
  share: number;
  /** What the default adds with `@opentelemetry/api` installed and no SDK registered, in µs. */
  noSdkUs: number;
  /** Data points the exporter received, to show the metrics were recorded. */
  exported: number;
}

/** A thread of SIZE clean messages, and a saver over it that hands back the loaded tuple without reading. */
async function loadedThread() {
  const inner = new MemorySaver();
  const config = { configurable: { thread_id: "bench-telemetry" } };
  await seed(inner, "bench-telemetry", SIZE, "clean");
  const loaded = await inner.getTuple(config);
  const stub = Object.create(inner) as BaseCheckpointSaver;
  stub.getTuple = async () => loaded;
  const batch = (saver: BaseCheckpointSaver) => async () => {
    for (let i = 0; i < BATCH; i++) await saver.getTuple(config);
  };
  /** Median ms of a read of the thread through `saver`. */
  const readMs = async (saver: BaseCheckpointSaver) => {
    const times = [];
    for (let i = 0; i < 21; i++) {
      const start = performance.now();
      await saver.getTuple(config);
      times.push(performance.now() - start);
    }
    return median(times);
  };
  return { inner, stub, batch, readMs };
}

export async function telemetryOverhead(pairs: number): Promise<TelemetryOverhead> {
  const { inner, stub, batch, readMs } = await loadedThread();

  // The SDK as an app runs it: a periodic reader exporting every second, here to memory.
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 1000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const off = new SanitizingCheckpointer(stub, { telemetry: false });
  const on = new SanitizingCheckpointer(stub, { telemetry: { meterProvider } });
  const noSdk = new SanitizingCheckpointer(stub);
  for (let i = 0; i < 5; i++) await Promise.all([batch(off)(), batch(on)(), batch(noSdk)()]);
  const timed = await compare(batch(off), batch(on), pairs);
  const withoutSdk = await compare(batch(off), batch(noSdk), pairs);

  const rawMs = await readMs(inner);
  await reader.forceFlush();
  const exported = exporter
    .getMetrics()
    .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.dataPoints.length)))
    .reduce((a, b) => a + b, 0);
  await meterProvider.shutdown();

  const offUs = (timed.rawMs * 1000) / BATCH;
  const addedUs = Math.max(0, ((timed.sanitizedMs - timed.rawMs) * 1000) / BATCH);
  const noSdkUs = ((withoutSdk.sanitizedMs - withoutSdk.rawMs) * 1000) / BATCH;
  return { rawMs, offUs, addedUs, share: addedUs / 1000 / rawMs, noSdkUs, exported };
}

export interface TracingOverhead {
  /** The raw MemorySaver getTuple, and the drop-in's (the wrapper with FastJsonPlusSerializer), in ms. */
  rawMs: number;
  dropInMs: number;
  /** What a span adds to a read, in µs, and as a share of each read. */
  addedUs: number;
  share: number;
  dropInShare: number;
  /** Spans the exporter received, one per traced read. */
  exported: number;
  traced: number;
}

/**
 * The spans, with no MeterProvider registered (the metrics a lookup), exported one by one as they end
 * (SimpleSpanProcessor, the costlier of the SDK's processors on the read's own path), and the async-hooks context
 * manager the Node SDK registers (each operation runs in its span's context).
 */
export async function tracingOverhead(pairs: number): Promise<TracingOverhead> {
  const { inner, stub, batch, readMs } = await loadedThread();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let exported = 0;
  // Counted and dropped per batch, as an exporter sends them away.
  const emptied = (run: () => Promise<void>) => async () => {
    await run();
    exported += exporter.getFinishedSpans().length;
    exporter.reset();
  };
  const off = new SanitizingCheckpointer(stub, { telemetry: false });
  const on = new SanitizingCheckpointer(stub, { telemetry: { tracerProvider } });
  for (let i = 0; i < 5; i++) await Promise.all([batch(off)(), emptied(batch(on))()]);
  exported = 0;
  const timed = await compare(batch(off), emptied(batch(on)), pairs);
  const traced = (pairs + 1) * BATCH;

  const rawMs = await readMs(inner);
  const dropIn = new MemorySaver();
  await seed(dropIn, "bench-telemetry", SIZE, "clean");
  const dropInMs = await readMs(new SanitizingCheckpointer(dropIn, { telemetry: false }));
  await tracerProvider.shutdown();
  context.disable();

  const addedUs = Math.max(0, ((timed.sanitizedMs - timed.rawMs) * 1000) / BATCH);
  return {
    rawMs,
    dropInMs,
    addedUs,
    share: addedUs / 1000 / rawMs,
    dropInShare: addedUs / 1000 / dropInMs,
    exported,
    traced,
  };
}
