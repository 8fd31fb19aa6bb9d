/**
 * `@opentelemetry/api`, loaded on first use: it is an optional peer, so the package imports it only when telemetry
 * is on, and never fails without it. The few parts used are typed here, so that no declaration the package ships
 * names the package.
 */

/** Attribute values, as OpenTelemetry takes them. */
export type TelemetryAttributes = Record<string, string | number | string[] | number[]>;

export interface ObservableCounterLike {
  addCallback(callback: (result: { observe(value: number, attributes?: TelemetryAttributes): void }) => void): void;
}

export interface HistogramLike {
  record(value: number, attributes?: TelemetryAttributes): void;
}

interface InstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}

export interface MeterLike {
  createObservableCounter(name: string, options?: InstrumentOptions): ObservableCounterLike;
  createHistogram(name: string, options?: InstrumentOptions): HistogramLike;
}

/** An OpenTelemetry `MeterProvider`, such as the SDK's. */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike;
}

export interface SpanLike {
  addEvent(name: string, attributes?: TelemetryAttributes): unknown;
}

/** @internal */
export interface OpenTelemetryApi {
  metrics: { getMeterProvider(): MeterProviderLike };
  trace: { getActiveSpan(): SpanLike | undefined };
  /** A meter of the API's no-op kind: what every meter is until an SDK registers a provider. */
  createNoopMeter(): MeterLike;
}

let loading: Promise<OpenTelemetryApi | undefined> | undefined;

/** The app's `@opentelemetry/api`, or `undefined` when it is not installed; loaded once per process. @internal */
export function loadOpenTelemetry(): Promise<OpenTelemetryApi | undefined> {
  loading ??= import("@opentelemetry/api").then(
    (api) => api as unknown as OpenTelemetryApi,
    () => undefined,
  );
  return loading;
}
