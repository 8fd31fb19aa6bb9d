/**
 * What the OpenTelemetry metrics add to a clean 1,000-message getTuple, with the SDK recording to its in-memory
 * exporter: the wrapper with metrics against the same wrapper with `telemetry: false`, both around a saver that
 * hands back the already-loaded tuple (as ownCost in run.ts), in interleaved batches. The target is a share of the
 * raw read, as the wrapper's own are.
 */
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { SanitizingCheckpointer } from "../src/index.js";
import { seed } from "./histories.js";
import { compare } from "./stats.js";

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

export async function telemetryOverhead(pairs: number): Promise<TelemetryOverhead> {
  const inner = new MemorySaver();
  const config = { configurable: { thread_id: "bench-telemetry" } };
  await seed(inner, "bench-telemetry", SIZE, "clean");
  const loaded = await inner.getTuple(config);
  const stub = Object.create(inner) as BaseCheckpointSaver;
  stub.getTuple = async () => loaded;

  // The SDK as an app runs it: a periodic reader exporting every second, here to memory.
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 1000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const off = new SanitizingCheckpointer(stub, { telemetry: false });
  const on = new SanitizingCheckpointer(stub, { telemetry: { meterProvider } });
  const noSdk = new SanitizingCheckpointer(stub);
  const batch = (saver: BaseCheckpointSaver) => async () => {
    for (let i = 0; i < BATCH; i++) await saver.getTuple(config);
  };
  for (let i = 0; i < 5; i++) await Promise.all([batch(off)(), batch(on)(), batch(noSdk)()]);
  const timed = await compare(batch(off), batch(on), pairs);
  const withoutSdk = await compare(batch(off), batch(noSdk), pairs);

  const rawStart = performance.now();
  for (let i = 0; i < 20; i++) await inner.getTuple(config);
  const rawMs = (performance.now() - rawStart) / 20;
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
