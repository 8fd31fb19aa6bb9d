/**
 * The OpenTelemetry SDK as an app sets it up, with in-memory exporters: what the sanitizer recorded, read back as
 * plain data points.
 */
import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";

/** One data point: a counter's sum or a histogram's count, with its attributes. */
export interface Point {
  metric: string;
  attributes: Record<string, unknown>;
  value: number;
}

/** A MeterProvider exporting to memory, as an app's SDK would; not registered globally unless `register()` is called. */
export function inMemoryMetrics() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when flushed: the test reads what was recorded up to then.
  const reader: MetricReader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  let registered = false;
  return {
    provider,
    register: () => {
      registered = true;
      return metrics.setGlobalMeterProvider(provider);
    },
    /** Every data point recorded so far, by metric. */
    async points(): Promise<Point[]> {
      exporter.reset();
      await reader.forceFlush();
      return exporter.getMetrics().flatMap((resource) =>
        resource.scopeMetrics.flatMap((scope) =>
          scope.metrics.flatMap((metric) =>
            metric.dataPoints.map((point) => ({
              metric: metric.descriptor.name,
              attributes: point.attributes,
              value: typeof point.value === "number" ? point.value : (point.value as { count: number }).count,
            })),
          ),
        ),
      );
    },
    /** Unregisters it too, when it was registered: the next test file (in the same worker) registers its own. */
    async shutdown() {
      await provider.shutdown();
      if (registered) metrics.disable();
    },
  };
}

/** A tracer provider exporting to memory, not registered: as `telemetry: { tracerProvider }` takes it. */
export function inMemoryTracerProvider() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { provider, spans: () => exporter.getFinishedSpans(), shutdown: () => provider.shutdown() };
}

/** A global tracer provider exporting to memory, with the async-hooks context manager, as the Node SDK sets it up. */
export function inMemoryTraces() {
  const { provider, spans, shutdown } = inMemoryTracerProvider();
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  return {
    tracer: provider.getTracer("app"),
    spans,
    async shutdown() {
      await shutdown();
      trace.disable();
      context.disable();
    },
  };
}

/**
 * Every text a span holds that an exporter sends: its name, status message, attribute values and its events' names
 * and attribute values (list values one by one).
 */
export function spanTexts(spans: readonly ReadableSpan[]): string[] {
  const values = (attributes: Record<string, unknown> | undefined) =>
    Object.values(attributes ?? {}).flatMap((value) => (Array.isArray(value) ? value : [value]).map(String));
  return spans.flatMap((span) => [
    span.name,
    span.status.message ?? "",
    ...values(span.attributes),
    ...span.events.flatMap((event) => [event.name, ...values(event.attributes)]),
  ]);
}

/** The texts of `spans` that contain one of `secrets`. */
export const leaked = (spans: readonly ReadableSpan[], secrets: readonly string[]) =>
  spanTexts(spans).filter((text) => secrets.some((secret) => text.includes(secret)));

/** The sum of the points of `metric` whose attributes include `match`. */
export const total = (points: readonly Point[], metric: string, match: Record<string, unknown> = {}) =>
  points
    .filter((p) => p.metric === metric && Object.entries(match).every(([k, v]) => p.attributes[k] === v))
    .reduce((sum, p) => sum + p.value, 0);
