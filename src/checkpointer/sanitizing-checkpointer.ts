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
import type { Repair } from "../repair/patterns.js";
import type { TailMode } from "../repair/repair-messages.js";
import { assertOneOf, assertOption } from "../repair/validate.js";
import {
  POLICIES,
  assertFastReads,
  policyFor,
  resolveRepairOptions,
  type ReadOptions,
  type SanitizerPolicy,
  type SharedRepairOptions,
} from "../options.js";
import { assertBreakpoints, namingNodes, type BreakpointNodes, type Breakpoints } from "./breakpoints.js";
import { DeltaReads } from "./delta-reads.js";
import { readFastThrough } from "./fast-reads.js";
import { passUnknownMethods } from "./pass-through.js";
import { mayBePostgresSaver, postgresReads, type SaverReads } from "./postgres-reads.js";
import { ReadDecisions, decisionFor } from "./read-decisions.js";
import type { InputLists } from "./input-answers.js";
import { runContextOf, takeInputLists, type ThreadActivity } from "./run-context.js";
import { sanitizeTuple, type ChannelRepairs, type TupleRepairSettings } from "./sanitize-tuple.js";
import { tailModeForGetTuple, tailModeForList, type ReadKnowledge } from "./tail-policy.js";
import { ReadTelemetry, type TelemetryOption } from "../telemetry/read-telemetry.js";

const NO_REPAIRS: readonly Repair[] = [];
const allRepairs = (repaired: readonly ChannelRepairs[]) =>
  repaired.length === 0 ? NO_REPAIRS : repaired.flatMap((c) => c.repairs);

/** How many input checkpoints in a row a read looks past for stranded results (runs cancelled right after their input). */
const MAX_INPUT_ANCESTORS = 8;

/** Reported through `onRepair` for each channel a read repaired. */
export interface RepairEvent {
  /** `getTuple` or `list`; `getDeltaChannelHistory` for a delta channel (`MessagesDeltaValue`). */
  operation: "getTuple" | "list" | "getDeltaChannelHistory";
  threadId: string | undefined;
  checkpointNs: string;
  checkpointId: string;
  channel: string;
  /** Whether the tail was repaired or preserved on this read. */
  tail: TailMode;
  /** Every change made to the channel, with removed messages whole. */
  repairs: Repair[];
}

/**
 * Options of {@link SanitizingCheckpointer}. `markers`, `bridgeRole` and `onRepair` (called once for each
 * channel a read repaired) are shared with the model-call middleware.
 */
export interface SanitizingCheckpointerOptions extends SharedRepairOptions<RepairEvent>, ReadOptions {
  /** Default policy; a call overrides it with `configurable.sanitizer`. @default "auto" */
  policy?: SanitizerPolicy;
  /** Channels to repair: a non-empty list of names. @default every channel whose value is a list of messages */
  channels?: readonly string[];
  /**
   * The graph's `compile({ interruptBefore })`, and its subgraphs'. A thread paused before one of these nodes, in
   * the graph or in a subgraph it runs, reads as stored, so approving with `invoke(null)` runs the tools on the
   * tail they need. (`sanitizeGraph` reads the graph's own off the graph.)
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
  policy: SanitizerPolicy;
  settings: TupleRepairSettings;
  onRepair: ((event: RepairEvent) => void) | undefined;
  /** The breakpoints given, as given: `sanitizeGraph` fills in the graph's where none is. */
  breakpoints: Breakpoints;
  telemetry: TelemetryOption | undefined;
  fastReads: boolean;
}

/** The resolved options made here: a checkpointer given one of them takes it without validating again. */
const resolvedHere = new WeakSet<object>();

const isResolved = (options: object): options is ResolvedSanitizerOptions => resolvedHere.has(options);

function resolved(options: ResolvedSanitizerOptions): ResolvedSanitizerOptions {
  resolvedHere.add(options);
  return options;
}

/**
 * Validates `options` and resolves them, throwing an `InvalidOptionError` that names the bad option. Shared with
 * `sanitizeGraph`, which validates when it is called, before any checkpointer exists to wrap, and builds its
 * wrappers from the result.
 * @internal
 */
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
 * A checkpointer that wraps any other and hands every graph and subgraph a
 * well-formed chat history: the message channels of what `getTuple` and
 * `list` return are repaired (see `repairMessages`), so a thread broken by a
 * cancelled or failed run works again on its next turn.
 *
 * Writes pass through untouched; reads never write. A repaired history is
 * stored when the graph next saves that channel, and the repair is
 * deterministic, so a thread reads the same until then. A thread paused at
 * `interrupt()` or at a static breakpoint given in the options, a finished
 * thread and time travel keep their tail as it is (the tail policy), so
 * `Command({ resume })` and approvals behave as with the wrapped saver.
 * `sanitizeGraph` also sees each run's input, so it tells a retry with
 * `invoke(null)` from a new message.
 *
 * A saver that uses the stock `JsonPlusSerializer` is given a
 * `FastJsonPlusSerializer` as its `serde` (unless `fastReads: false`): the
 * same bytes written, the same values read, several times faster. The
 * official `PostgresSaver` is also read through FastPostgresSaver's read path
 * (the same tuples, one text-format statement), the saver itself unchanged.
 *
 * @example
 * ```ts
 * const checkpointer = new SanitizingCheckpointer(new MemorySaver());
 * const graph = builder.compile({ checkpointer });
 * ```
 */
export class SanitizingCheckpointer<V extends string | number = number> extends BaseCheckpointSaver<V> {
  /** The wrapped saver: storage, and anything specific to it (`setup()`, `end()`). */
  readonly inner: BaseCheckpointSaver<V>;
  /** Its options, resolved, for `sanitizeGraph` to build a sibling that knows the graph. @internal */
  readonly resolved: ResolvedSanitizerOptions;
  /** The runs `sanitizeGraph` serves in this process, for the wrappers it builds. */
  private activity: ThreadActivity | undefined;

  private readonly policy: SanitizerPolicy;
  private readonly settings: TupleRepairSettings;
  private readonly onRepair: ((event: RepairEvent) => void) | undefined;
  private readonly breakpoints: Breakpoints | undefined;
  private readonly decisions = new ReadDecisions();
  private readonly deltaReads: DeltaReads;
  private readonly telemetry: ReadTelemetry | undefined;
  /** The `provider` setting, as the metrics name it. */
  private readonly providerName: string;
  /**
   * What `getTuple` and `list` read through: the wrapped saver, or with `fastReads` over the official
   * `PostgresSaver`, FastPostgresSaver's read path (see postgres-reads.ts); `undefined` until the first read finds out.
   */
  private reads: SaverReads | undefined;
  private findingReads: Promise<SaverReads> | undefined;

  /**
   * @param inner - the saver to wrap
   * @param options - see {@link SanitizingCheckpointerOptions}
   * @throws InvalidOptionError (a `TypeError`) when an option is not one it takes; a plain `TypeError` when `inner`
   * is not a checkpointer (an argument, not an option)
   */
  constructor(inner: BaseCheckpointSaver<V>, options?: SanitizingCheckpointerOptions);
  /** @internal Options `resolveSanitizerOptions` resolved (`sanitizeGraph`'s wrappers), not validated again. */
  constructor(inner: BaseCheckpointSaver<V>, options: ResolvedSanitizerOptions);
  constructor(inner: BaseCheckpointSaver<V>, options: SanitizingCheckpointerOptions | ResolvedSanitizerOptions = {}) {
    assertSaver(inner);
    const resolved = isResolved(options) ? options : resolveSanitizerOptions(options);
    if (resolved.fastReads) readFastThrough(inner);
    super(inner.serde);
    this.inner = inner;
    this.resolved = resolved;
    this.policy = resolved.policy;
    this.onRepair = resolved.onRepair;
    this.settings = resolved.settings;
    this.breakpoints = namingNodes(resolved.breakpoints);
    this.providerName = resolved.settings.repair.provider ?? "none";
    this.reads = resolved.fastReads && mayBePostgresSaver(inner) ? undefined : inner;
    this.telemetry = ReadTelemetry.create(resolved.telemetry, {
      entryPoint: "checkpointer",
      saver: inner.constructor?.name,
    });
    // Some LangGraph lines bind it to an undefined `this` inside subgraphs (`getNextVersion.bind(this.checkpointer)`).
    this.getNextVersion = this.getNextVersion.bind(this);
    this.deltaReads = new DeltaReads(inner, this.settings, this.policy, this.decisions, (config, tail, repaired) => {
      const configurable = config.configurable ?? {};
      this.report("getDeltaChannelHistory", configurable, String(configurable.checkpoint_id ?? ""), tail, repaired);
      // Counted, not timed: the repair of a delta channel's history interleaves the wrapped saver's reads.
      this.telemetry?.record("getDeltaChannelHistory", tail, this.providerName, allRepairs(repaired));
    });
    passUnknownMethods(this, inner, SanitizingCheckpointer);
  }

  /** A wrapper that knows the runs `sanitizeGraph` serves in this process (see `tail-policy.ts`). @internal */
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

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const policy = policyFor(config, this.policy);
    if (this.telemetry?.loading) await this.telemetry.loading;
    // Taken before the read: a run in flight now may end before the saver answers with its mid-run snapshot.
    const threadId = config.configurable?.thread_id;
    const runInFlight = threadId !== undefined && this.activity?.isRunning(String(threadId)) === true;
    const input = takeInputLists(config);
    const reads = this.reads ?? (await this.findReads());
    const tuple = await reads.getTuple(config);
    if (tuple === undefined) return undefined;
    const tail = await tailModeForGetTuple(policy, config, tuple, this.knowledge(reads, runInFlight));
    const earlier = tail === "repair" ? await this.inputAncestors(reads, tuple) : undefined;
    return this.decisions.record(
      this.sanitize(tuple, tail, "getTuple", earlier, input),
      decisionFor(tuple, tail, policy === "auto"),
    );
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const policy = policyFor(config, this.policy);
    const tail = tailModeForList(policy);
    if (this.telemetry?.loading) await this.telemetry.loading;
    const reads = this.reads ?? (await this.findReads());
    for await (const tuple of reads.list(config, options)) {
      yield this.decisions.record(this.sanitize(tuple, tail, "list"), decisionFor(tuple, tail, policy === "auto"));
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
    return this.inner.put(config, checkpoint, metadata, newVersions);
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.inner.putWrites(config, writes, taskId, taskPath);
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: V | undefined): V {
    return this.inner.getNextVersion(current);
  }

  /**
   * Delta channels (`MessagesDeltaValue`) are rebuilt by the graph from what this returns, so their
   * message lists are repaired here (see `DeltaReads`). The config always addresses a checkpoint by
   * id, so the tail is treated as the `getTuple` or `list` that returned that checkpoint decided;
   * with no such read (direct calls), as by `list`.
   */
  override getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    return this.deltaReads.read(options);
  }

  /** Finds what to read through, once: see {@link reads}. */
  private findReads(): Promise<SaverReads> {
    this.findingReads ??= postgresReads(this.inner).then((reads) => (this.reads = reads));
    return this.findingReads;
  }

  /** What a `getTuple` knows beyond its tuple: the graph's breakpoints, the runs in flight, the wrapped saver. */
  private knowledge(reads: SaverReads, runInFlight: boolean): ReadKnowledge {
    return {
      breakpoints: this.breakpoints,
      activity: this.activity,
      runInFlight,
      read: (configurable) => reads.getTuple({ configurable }),
    };
  }

  /**
   * The ancestors of an input checkpoint up to the checkpoint its input followed: when runs were cancelled right
   * after storing their input, the results the first of them recovered may still sit in that checkpoint's pending
   * writes (see `sanitizeTuple`). Empty for any other checkpoint, so a read pays for this only then.
   */
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
    tail: TailMode | "off",
    operation: RepairEvent["operation"],
    earlier?: readonly CheckpointTuple[],
    input?: InputLists,
  ): CheckpointTuple {
    if (tail === "off") return tuple;
    const started = this.telemetry?.begin();
    const { tuple: result, repaired } = sanitizeTuple(tuple, tail, this.settings, earlier, input);
    this.telemetry?.record(operation, tail, this.providerName, allRepairs(repaired), started);
    const configurable = tuple.config.configurable ?? {};
    this.report(operation, configurable, configurable.checkpoint_id ?? tuple.checkpoint.id, tail, repaired);
    return result;
  }

  private report(
    operation: RepairEvent["operation"],
    configurable: Record<string, unknown>,
    checkpointId: string,
    tail: TailMode,
    repaired: readonly ChannelRepairs[],
  ): void {
    if (!this.onRepair) return;
    for (const { channel, repairs } of repaired) {
      this.onRepair({
        operation,
        threadId: configurable.thread_id as string | undefined,
        checkpointNs: (configurable.checkpoint_ns as string | undefined) ?? "",
        checkpointId,
        channel,
        tail,
        repairs,
      });
    }
  }
}
