import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type DeltaChannelHistory,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { TailKind } from "../repair/repair-messages.js";
import { assertOneOf, assertOption } from "../options/assert-option.js";
import { POLICIES, policyFor, type TailPolicy } from "../options/policy.js";
import {
  assertFastReads,
  resolveRepairOptions,
  type ReadOptions,
  type SharedRepairOptions,
} from "../options/shared-options.js";
import { assertBreakpoints, namingNodes, type BreakpointNodes, type Breakpoints } from "./breakpoints.js";
import { DeltaReads } from "./delta-reads.js";
import { readFastThrough } from "./fast-reads.js";
import { passUnknownMethods } from "./pass-through.js";
import { mayBePostgresSaver, postgresReads, type SaverReads } from "./postgres-reads.js";
import { ReadDecisions, decisionFor } from "./read-decisions.js";
import type { InputLists } from "./run-input.js";
import { runContextOf, takeInputLists, type ThreadActivity } from "./run-context.js";
import { sanitizeInput, sanitizeTuple, type TupleRepairSettings } from "./sanitize-tuple.js";
import { tailForGetTuple, tailForList, type ReadKnowledge } from "./tail-policy.js";
import type { TelemetryAttributes } from "../telemetry/open-telemetry-api.js";
import { OperationSpans, SPAN_ATTRIBUTES, type OperationSpan } from "../telemetry/operation-spans.js";
import type { TelemetryOption } from "../telemetry/telemetry-option.js";
import { ReadReports, type RepairEvent } from "./read-reports.js";
import { foundAttributes, historyAttributes, putAttributes, ReadTally, writesAttributes } from "./span-attributes.js";
import { prune, type PruneOptions, type PruneReport } from "../retention/prune.js";
import { MAX_INPUT_ANCESTORS } from "./read-reach.js";

export type { RepairEvent };

/** Options of {@link SanitizingCheckpointer}; `markers`, `bridgeRole` and `onRepair` are shared with the middleware. */
export interface SanitizingCheckpointerOptions extends SharedRepairOptions<RepairEvent>, ReadOptions {
  /** Default policy; a call overrides it with `configurable.tailPolicy`. @default "auto" */
  policy?: TailPolicy;
  /** Channels to repair: a non-empty list of names. @default every channel whose value is a list of messages */
  channels?: readonly string[];
  /**
   * The graph's and subgraphs' `compile({ interruptBefore })`: a thread paused there reads as stored, so approving
   * with `invoke(null)` runs the tools. (`sanitizeGraph` reads the graph's own.)
   * @default none
   */
  interruptBefore?: BreakpointNodes;
  /** The graph's and its subgraphs' `compile({ interruptAfter })`, read as `interruptBefore`. @default none */
  interruptAfter?: BreakpointNodes;
}

function assertSaver(inner: unknown): asserts inner is BaseCheckpointSaver {
  const saver = inner as Partial<BaseCheckpointSaver> | null | undefined;
  const missing = (["getTuple", "list", "put", "putWrites"] as const).filter((m) => typeof saver?.[m] !== "function");
  if (missing.length > 0) {
    throw new TypeError(
      `SanitizingCheckpointer needs a checkpointer to wrap (a BaseCheckpointSaver such as MemorySaver); ` +
        `got ${inner === null || inner === undefined ? String(inner) : `an object without ${missing.join(", ")}`}.`,
    );
  }
}

const isChannelList = (channels: unknown): boolean =>
  Array.isArray(channels) && channels.length > 0 && channels.every((c) => typeof c === "string" && c !== "");

/** Options of {@link SanitizingCheckpointer}, validated and resolved. @internal */
export interface ResolvedSanitizerOptions {
  policy: TailPolicy;
  settings: TupleRepairSettings;
  onRepair: ((event: RepairEvent) => void) | undefined;
  breakpoints: Breakpoints;
  telemetry: TelemetryOption | undefined;
  fastReads: boolean;
}

/** Resolved options made here are taken without validating again. */
const resolvedHere = new WeakSet<object>();

const isResolved = (options: object): options is ResolvedSanitizerOptions => resolvedHere.has(options);

function resolved(options: ResolvedSanitizerOptions): ResolvedSanitizerOptions {
  resolvedHere.add(options);
  return options;
}

/** Throws an `InvalidOptionError` naming the bad option; `sanitizeGraph` validates before wrapping. @internal */
export function resolveSanitizerOptions(options: SanitizingCheckpointerOptions = {}): ResolvedSanitizerOptions {
  const policy = options.policy ?? "auto";
  assertOneOf("policy", policy, POLICIES);
  const { channels } = options;
  if (channels !== undefined)
    assertOption("channels", channels, isChannelList(channels), "must be a non-empty array of channel names (strings)");
  const { repair, onRepair, telemetry } = resolveRepairOptions(options);
  return resolved({
    policy,
    fastReads: assertFastReads(options.fastReads),
    onRepair,
    breakpoints: assertBreakpoints(options),
    telemetry,
    settings: { channels: channels ? [...channels] : undefined, repair },
  });
}

/**
 * Wraps any checkpointer so every graph and subgraph reads a well-formed chat history: the message channels
 * `getTuple` and `list` return are repaired (see `repairMessages`), so a thread broken by a cancelled or failed run
 * works on its next turn. Writes pass through; reads never write. Paused, finished and time-travel reads keep their
 * tail (docs/tail-policy.md). Reads are faster through `FastJsonPlusSerializer` unless `fastReads: false`.
 *
 * @example
 * ```ts
 * const checkpointer = new SanitizingCheckpointer(new MemorySaver());
 * const graph = builder.compile({ checkpointer });
 * ```
 */
export class SanitizingCheckpointer<V extends string | number = number> extends BaseCheckpointSaver<V> {
  /** The wrapped saver, for anything specific to it (`setup()`, `end()`). */
  readonly inner: BaseCheckpointSaver<V>;
  /** Its options, resolved, for `sanitizeGraph` to build a sibling that knows the graph. @internal */
  readonly resolved: ResolvedSanitizerOptions;
  private activity: ThreadActivity | undefined;

  private readonly policy: TailPolicy;
  private readonly settings: TupleRepairSettings;
  private readonly breakpoints: Breakpoints | undefined;
  private readonly decisions = new ReadDecisions();
  private readonly deltaReads: DeltaReads;
  private readonly reports: ReadReports;
  private readonly spans: OperationSpans | undefined;
  /** The wrapped saver, or FastPostgresSaver's read path over the official `PostgresSaver`; set by the first read. */
  private reads: SaverReads | undefined;
  private findingReads: Promise<SaverReads> | undefined;

  /**
   * @param inner - the saver to wrap
   * @param options - see {@link SanitizingCheckpointerOptions}
   * @throws InvalidOptionError (a `TypeError`) for a bad option; a plain `TypeError` when `inner` is not a checkpointer
   */
  constructor(inner: BaseCheckpointSaver<V>, options?: SanitizingCheckpointerOptions);
  /** @internal Options `resolveSanitizerOptions` resolved, not validated again. */
  constructor(inner: BaseCheckpointSaver<V>, options: ResolvedSanitizerOptions);
  constructor(inner: BaseCheckpointSaver<V>, options: SanitizingCheckpointerOptions | ResolvedSanitizerOptions = {}) {
    assertSaver(inner);
    const resolved = isResolved(options) ? options : resolveSanitizerOptions(options);
    if (resolved.fastReads) readFastThrough(inner);
    super(inner.serde);
    this.inner = inner;
    this.resolved = resolved;
    this.policy = resolved.policy;
    this.settings = resolved.settings;
    this.breakpoints = namingNodes(resolved.breakpoints);
    this.reads = resolved.fastReads && mayBePostgresSaver(inner) ? undefined : inner;
    this.reports = readReports(resolved, inner.constructor?.name);
    this.spans = OperationSpans.create(resolved.telemetry, inner.constructor?.name);
    // Some LangGraph lines bind it to an undefined `this` inside subgraphs (`getNextVersion.bind(this.checkpointer)`).
    this.getNextVersion = this.getNextVersion.bind(this);
    this.deltaReads = new DeltaReads(
      inner,
      this.settings,
      this.policy,
      this.decisions,
      (config, tail, repaired, tally) => {
        const configurable = config.configurable ?? {};
        const checkpointId = String(configurable.checkpoint_id ?? "");
        // Counted, not timed: a delta repair interleaves the wrapped saver's reads.
        this.reports.done("getDeltaChannelHistory", configurable, checkpointId, tail, repaired, undefined, tally?.span);
        tally?.repaired(tail, repaired);
      },
    );
    passUnknownMethods(this, inner, SanitizingCheckpointer);
  }

  /** A wrapper that knows the runs `sanitizeGraph` serves in this process. @internal */
  static serving<V extends string | number>(
    inner: BaseCheckpointSaver<V>,
    options: ResolvedSanitizerOptions,
    breakpoints: Breakpoints,
    activity: ThreadActivity,
  ): SanitizingCheckpointer<V> {
    const checkpointer = new SanitizingCheckpointer(inner, resolved({ ...options, breakpoints }));
    checkpointer.activity = activity;
    return checkpointer;
  }

  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (this.spans === undefined) return this.readTuple(config);
    return this.spans.run("getTuple", config.configurable, async (span) => {
      const tally = this.tally(span);
      const tuple = await this.readTuple(config, tally);
      tally?.end(tuple && foundAttributes(tuple));
      return tuple;
    });
  }

  private async readTuple(config: RunnableConfig, tally?: ReadTally): Promise<CheckpointTuple | undefined> {
    const policy = policyFor(config, this.policy);
    if (this.reports.telemetry?.loading) await this.reports.telemetry.loading;
    // Taken before the read: a run in flight now may end before the saver answers with its mid-run snapshot.
    const threadId = config.configurable?.thread_id;
    const runInFlight = threadId !== undefined && this.activity?.isRunning(String(threadId)) === true;
    const input = takeInputLists(config);
    const reads = this.reads ?? (await this.findReads());
    const tuple = await reads.getTuple(config);
    if (tuple === undefined) {
      if (input !== undefined) sanitizeRunInput(this.reports, this.settings, config, input);
      return undefined;
    }
    const tail = await tailForGetTuple(policy, config, tuple, this.knowledge(reads, runInFlight));
    const earlier = tail === "stopped" ? await this.inputAncestors(reads, tuple) : undefined;
    return this.decisions.record(
      this.sanitize(tuple, tail, "getTuple", { earlier, input, tally }),
      decisionFor(tuple, tail, policy === "auto", input),
    );
  }

  override list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    if (this.spans === undefined) return this.readList(config, options);
    const read = (span: OperationSpan) => this.readList(config, options, this.tally(span));
    const limit = options?.limit;
    const extra = (): TelemetryAttributes => (limit !== undefined ? { [SPAN_ATTRIBUTES.listLimit]: limit } : {});
    return this.spans.iterate("list", config.configurable, read, extra);
  }

  private async *readList(
    config: RunnableConfig,
    options?: CheckpointListOptions,
    tally?: ReadTally,
  ): AsyncGenerator<CheckpointTuple> {
    const policy = policyFor(config, this.policy);
    const tail = tailForList(policy);
    if (this.reports.telemetry?.loading) await this.reports.telemetry.loading;
    const reads = this.reads ?? (await this.findReads());
    try {
      for await (const tuple of reads.list(config, options)) {
        const sanitized = this.sanitize(tuple, tail, "list", { tally });
        yield this.decisions.record(sanitized, decisionFor(tuple, tail, policy === "auto"));
      }
    } finally {
      tally?.end();
    }
  }

  override put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const run = runContextOf(config);
    if (run !== undefined && (config.configurable?.checkpoint_ns ?? "") === "") run.lastCheckpointId = checkpoint.id;
    const put = () => this.inner.put(config, checkpoint, metadata, newVersions);
    return this.traced("put", config.configurable, put, () =>
      putAttributes(checkpoint, metadata, newVersions, this.settings.channels),
    );
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const putWrites = () => this.inner.putWrites(config, writes, taskId, taskPath);
    return this.traced("putWrites", config.configurable, putWrites, () => writesAttributes(writes));
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.traced("deleteThread", { thread_id: threadId }, () => this.inner.deleteThread(threadId));
  }

  override getNextVersion(current: V | undefined): V {
    return this.inner.getNextVersion(current);
  }

  /**
   * `prune` on the wrapped saver (docs/retention.md).
   * @throws PruneNotSupportedError unless the wrapped saver is IORedisSaver, (Fast)PostgresSaver or SqliteSaver
   */
  prune(options: PruneOptions): Promise<PruneReport> {
    return prune(this.inner, { telemetry: this.resolved.telemetry, ...options });
  }

  /** Delta channels are rebuilt from this, so it is repaired too, with the tail the read of that checkpoint decided. */
  override getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    if (this.spans === undefined) return this.deltaReads.read(options);
    return this.spans.run("getDeltaChannelHistory", options.config.configurable, async (span) => {
      const tally = this.tally(span, false);
      const histories = await this.deltaReads.read(options, tally);
      tally?.end(historyAttributes(options.channels, histories));
      return histories;
    });
  }

  /** A write or a delete, in its span when spans are on; `attributes` describe it, from the start. */
  private traced<T>(
    operation: string,
    configurable: Record<string, unknown> | undefined,
    call: () => Promise<T>,
    attributes?: () => TelemetryAttributes,
  ): Promise<T> {
    if (this.spans === undefined) return call();
    return this.spans.run(operation, configurable, call, attributes);
  }

  private tally(span: OperationSpan, tuples = true): ReadTally | undefined {
    return span && new ReadTally(span, this.settings.channels, tuples);
  }

  private findReads(): Promise<SaverReads> {
    this.findingReads ??= postgresReads(this.inner).then((reads) => (this.reads = reads));
    return this.findingReads;
  }

  private knowledge(reads: SaverReads, runInFlight: boolean): ReadKnowledge {
    return {
      breakpoints: this.breakpoints,
      activity: this.activity,
      runInFlight,
      read: (configurable) => reads.getTuple({ configurable }),
    };
  }

  /** Input checkpoints back to the one before: results recovered there may sit in its pending writes. */
  private async inputAncestors(reads: SaverReads, tuple: CheckpointTuple): Promise<CheckpointTuple[]> {
    const ancestors: CheckpointTuple[] = [];
    let at = tuple;
    while (ancestors.length < MAX_INPUT_ANCESTORS && at.metadata?.source === "input" && at.parentConfig) {
      const parent = await reads.getTuple(at.parentConfig);
      if (parent === undefined) break;
      ancestors.push((at = parent));
    }
    return ancestors;
  }

  private sanitize(
    tuple: CheckpointTuple,
    tail: TailKind | "off",
    operation: RepairEvent["operation"],
    { earlier, input, tally }: { earlier?: readonly CheckpointTuple[]; input?: InputLists; tally?: ReadTally },
  ): CheckpointTuple {
    if (tail === "off") {
      tally?.add(tuple, tail, []);
      return tuple;
    }
    const started = this.reports.telemetry?.begin();
    const { tuple: result, repaired } = sanitizeTuple(tuple, tail, this.settings, earlier, input);
    const configurable = tuple.config.configurable ?? {};
    const checkpointId = configurable.checkpoint_id ?? tuple.checkpoint.id;
    this.reports.done(operation, configurable, checkpointId, tail, repaired, started, tally?.span);
    tally?.add(result, tail, repaired);
    return result;
  }
}

/** @internal */
export const readReports = (options: ResolvedSanitizerOptions, saver?: string) =>
  new ReadReports(options.onRepair, options.telemetry, options.settings.repair.provider, saver);

/** Repairs the lists of a run's input that no stored history precedes, reported as a read. @internal */
export function sanitizeRunInput(
  reports: ReadReports,
  settings: TupleRepairSettings,
  config: RunnableConfig | undefined,
  input: InputLists,
): void {
  const started = reports.telemetry?.begin();
  const repaired = sanitizeInput(input, settings);
  reports.done("input", config?.configurable ?? {}, "", "finished", repaired, started);
}
