// A span around each checkpointer operation (docs/observability.md#spans): a child of the active span, and active
// itself while the operation runs, so the store client's own spans nest under it. A failing operation's span records
// the error, then the error goes on unchanged. Without an SDK, a lookup per operation.
import { ATTRIBUTES, METER_NAME } from "./metrics.js";
import {
  loadOpenTelemetry,
  type ContextLike,
  type OpenTelemetryApi,
  type RecordingSpanLike,
  type TelemetryAttributes,
  type TracerLike,
  type TracerProviderLike,
} from "./open-telemetry-api.js";
import type { TelemetryOption } from "./telemetry-option.js";
import { ThreadIds } from "./thread-ids.js";

/** Each name is `checkpoint_sanitizer.` and the operation: `checkpoint_sanitizer.getTuple`. */
const SPAN_PREFIX = "checkpoint_sanitizer.";

/** On the spans, beside `operation`, `saver`, `tail`, `read.outcome`, `read.patterns` and `repair.count`. */
export const SPAN_ATTRIBUTES = {
  threadId: "checkpoint_sanitizer.thread_id",
  checkpointNs: "checkpoint_sanitizer.checkpoint_ns",
  checkpointId: "checkpoint_sanitizer.checkpoint_id",
  checkpoints: "checkpoint_sanitizer.checkpoints",
  messages: "checkpoint_sanitizer.messages",
  pendingWrites: "checkpoint_sanitizer.pending_writes",
  writes: "checkpoint_sanitizer.writes",
  writeChannels: "checkpoint_sanitizer.write.channels",
  updatedChannels: "checkpoint_sanitizer.channels.updated",
  source: "checkpoint_sanitizer.source",
  step: "checkpoint_sanitizer.step",
  listLimit: "checkpoint_sanitizer.list.limit",
  listComplete: "checkpoint_sanitizer.list.complete",
  /** OpenTelemetry's semantic convention: the error's class. */
  errorType: "error.type",
} as const;

const SPAN_KIND_INTERNAL = 0;
const STATUS_ERROR = 2;

/** Per provider; `null` for the API's no-op one (no SDK). */
const tracersByProvider = new WeakMap<TracerProviderLike, TracerLike | null>();

/**
 * What a span records of an error: its class, message and stack, except a `SyntaxError`'s message (V8's quotes the
 * text it could not parse, which here is stored content).
 */
function recordedError(error: unknown): { name: string; message: string; stack?: string } {
  const thrown = error instanceof Error ? error : new Error(String(error));
  const name = thrown.constructor?.name || thrown.name;
  if (!(thrown instanceof SyntaxError)) return { name, message: thrown.message, stack: thrown.stack };
  const frames = thrown.stack?.split("\n").filter((line) => /^\s+at /.test(line));
  return { name, message: "(not recorded: a parse error quotes the text it read)", stack: frames?.join("\n") };
}

function fail(span: RecordingSpanLike, error: unknown): void {
  const recorded = recordedError(error);
  span.recordException(recorded);
  span.setStatus({ code: STATUS_ERROR, message: recorded.message });
  span.setAttributes({ [SPAN_ATTRIBUTES.errorType]: recorded.name });
}

/** `undefined` when the span does not record (sampled out): what an operation adds is skipped. @internal */
export type OperationSpan = RecordingSpanLike | undefined;

/** A config's `configurable`: the thread, namespace and checkpoint an operation is on. */
type Configurable = Record<string, unknown> | undefined;

/** Attributes built only when a span is made, over the configurable's. */
type Extra = (() => TelemetryAttributes) | undefined;

/** The spans of one checkpointer (or one prune), to its own provider or the global one. @internal */
export class OperationSpans {
  /** An operation awaits it, so the first one is traced too. */
  loading: Promise<void> | undefined;
  private api: OpenTelemetryApi | undefined;
  private noopProvider: unknown;

  /** `undefined` when telemetry is off, and for the doctor, whose reads are counted, not traced. */
  static create(option: TelemetryOption | undefined, saver?: string): OperationSpans | undefined {
    if (option === false) return undefined;
    const own = typeof option === "object" ? option : {};
    if ((own.entryPoint ?? "checkpointer") !== "checkpointer") return undefined;
    return new OperationSpans(own.tracerProvider, new ThreadIds(own.threadIds ?? "as-stored"), saver);
  }

  private constructor(
    private readonly tracerProvider: TracerProviderLike | undefined,
    private readonly threadIds: ThreadIds,
    private readonly saver: string | undefined,
  ) {
    this.loading = loadOpenTelemetry().then((api) => {
      this.api = api;
      this.noopProvider = api && new api.ProxyTracerProvider().getDelegate().constructor;
      this.loading = undefined;
    });
  }

  /** The thread, namespace and checkpoint of a config's `configurable`, the thread id as the option says. */
  private target(configurable: Configurable): TelemetryAttributes {
    const attributes: TelemetryAttributes = {};
    const threadId = this.threadIds.shown(configurable?.thread_id);
    if (threadId !== undefined) attributes[SPAN_ATTRIBUTES.threadId] = threadId;
    const { checkpoint_ns: ns, checkpoint_id: id } = configurable ?? {};
    if (typeof ns === "string") attributes[SPAN_ATTRIBUTES.checkpointNs] = ns;
    if (typeof id === "string" && id !== "") attributes[SPAN_ATTRIBUTES.checkpointId] = id;
    return attributes;
  }

  /** `fn`'s result, inside a span that ends when it settles. */
  async run<T>(operation: string, configurable: Configurable, fn: (span: OperationSpan) => Promise<T>, extra?: Extra) {
    if (this.loading) await this.loading;
    const started = this.start(operation, configurable, extra);
    if (started === undefined) return fn(undefined);
    const [span, context] = started;
    try {
      return await this.api!.context.with(context, () => fn(span.isRecording() ? span : undefined));
    } catch (error) {
      fail(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * `source`'s items, inside a span that ends when the iteration ends, fails or is abandoned (`list.complete` says
   * which); each step runs in the span's context.
   */
  async *iterate<T>(
    operation: string,
    configurable: Configurable,
    source: (span: OperationSpan) => AsyncIterable<T>,
    extra?: Extra,
  ): AsyncGenerator<T> {
    if (this.loading) await this.loading;
    const started = this.start(operation, configurable, extra);
    if (started === undefined) return yield* source(undefined);
    const [span, context] = started;
    const recording = span.isRecording() ? span : undefined;
    const within = <R>(step: () => R) => this.api!.context.with(context, step);
    const iterator = within(() => source(recording)[Symbol.asyncIterator]());
    let ended = false;
    try {
      for (;;) {
        let next: IteratorResult<T>;
        try {
          next = await within(() => iterator.next());
        } catch (error) {
          ended = true;
          fail(span, error);
          throw error;
        }
        if (next.done) break;
        yield next.value;
      }
      recording?.setAttributes({ [SPAN_ATTRIBUTES.listComplete]: true });
      ended = true;
    } finally {
      // The caller stopped early: the source's own cleanup runs inside the span.
      if (!ended) {
        recording?.setAttributes({ [SPAN_ATTRIBUTES.listComplete]: false });
        await within(() => iterator.return?.());
      }
      span.end();
    }
  }

  private start(
    operation: string,
    configurable: Configurable,
    extra: Extra,
  ): [RecordingSpanLike, ContextLike] | undefined {
    const tracer = this.tracer();
    if (tracer === null) return undefined;
    const api = this.api!;
    const parent = api.context.active();
    const span = tracer.startSpan(
      SPAN_PREFIX + operation,
      {
        kind: SPAN_KIND_INTERNAL,
        attributes: {
          [ATTRIBUTES.operation]: operation,
          ...(this.saver !== undefined ? { [ATTRIBUTES.saver]: this.saver } : {}),
          ...this.target(configurable),
          ...extra?.(),
        },
      },
      parent,
    );
    return [span, api.trace.setSpan(parent, span)];
  }

  /** Looked up per operation: the app may register its SDK after the checkpointer is made. */
  private tracer(): TracerLike | null {
    const api = this.api;
    if (api === undefined) return null;
    let provider = this.tracerProvider;
    if (provider === undefined) {
      const global = api.trace.getTracerProvider();
      provider = global.getDelegate?.() ?? global;
    }
    let tracer = tracersByProvider.get(provider);
    if (tracer === undefined) {
      tracer = provider.constructor === this.noopProvider ? null : provider.getTracer(METER_NAME);
      tracersByProvider.set(provider, tracer);
    }
    return tracer;
  }
}

/** `traceOperation`'s spans: one for the default option, one per option object. */
let defaultSpans: OperationSpans | undefined;
const spansByOption = new WeakMap<object, OperationSpans | undefined>();

function spansFor(telemetry: TelemetryOption | undefined): OperationSpans | undefined {
  if (typeof telemetry !== "object")
    return telemetry === false ? undefined : (defaultSpans ??= OperationSpans.create(true));
  if (!spansByOption.has(telemetry)) spansByOption.set(telemetry, OperationSpans.create(telemetry));
  return spansByOption.get(telemetry);
}

/**
 * `fn` inside a span named `checkpoint_sanitizer.<operation>` with `attributes`, for operations that are not a
 * checkpointer's, such as a retention batch; `fn` gets the span to add its counts (`undefined` when nothing records).
 * The span records the error when `fn` fails, and the error goes on unchanged. Never put a message's content in
 * `attributes`, nor a thread id (a checkpointer's spans record it as its `threadIds` option says). @internal
 */
export function traceOperation<T>(
  operation: string,
  attributes: TelemetryAttributes,
  fn: (span: OperationSpan) => Promise<T>,
  telemetry?: TelemetryOption,
): Promise<T> {
  const spans = spansFor(telemetry);
  return spans === undefined ? fn(undefined) : spans.run(operation, undefined, fn, () => attributes);
}
