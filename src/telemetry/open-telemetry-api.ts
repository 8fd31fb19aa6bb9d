// `@opentelemetry/api`, loaded on first use: an optional peer, imported only when telemetry is on, and nothing fails
// without it. The few parts used are typed here, so no declaration the package ships names the package.

/** Attribute values, as OpenTelemetry takes them. */
export type TelemetryAttributes = Record<string, string | number | boolean | string[] | number[]>;

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

/** A span as a tracer starts it. */
export interface RecordingSpanLike extends SpanLike {
  isRecording(): boolean;
  setAttributes(attributes: TelemetryAttributes): unknown;
  recordException(exception: { name: string; message: string; stack?: string }): void;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** An OpenTelemetry `Context`: only handed back to the API here. */
export interface ContextLike {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): ContextLike;
  deleteValue(key: symbol): ContextLike;
}

export interface TracerLike {
  startSpan(
    name: string,
    options: { kind: number; attributes: TelemetryAttributes },
    context: ContextLike,
  ): RecordingSpanLike;
}

/** An OpenTelemetry `TracerProvider`, such as the SDK's `NodeTracerProvider`. */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): TracerLike;
}

/** @internal */
export interface OpenTelemetryApi {
  metrics: { getMeterProvider(): MeterProviderLike };
  trace: {
    getActiveSpan(): SpanLike | undefined;
    /** The API's proxy: its delegate is the provider the app registered, or the no-op one. */
    getTracerProvider(): TracerProviderLike & { getDelegate?(): TracerProviderLike };
    setSpan(context: ContextLike, span: RecordingSpanLike): ContextLike;
  };
  context: {
    active(): ContextLike;
    with<T>(context: ContextLike, fn: () => T): T;
  };
  /** A meter of the API's no-op kind: what every meter is until an SDK registers a provider. */
  createNoopMeter(): MeterLike;
  /** Its delegate, before one is set, is the API's no-op provider. */
  ProxyTracerProvider: new () => { getDelegate(): TracerProviderLike };
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
