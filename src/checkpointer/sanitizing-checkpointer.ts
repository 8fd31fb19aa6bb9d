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
import { assertOneOf, resolveRepairOptions, type SharedRepairOptions } from "../options.js";
import { sanitizeTuple, type TupleRepairSettings } from "./sanitize-tuple.js";
import { POLICIES, policyFor, tailModeForGetTuple, tailModeForList, type SanitizerPolicy } from "./tail-policy.js";

/** Reported through `onRepair` for each channel a read repaired. */
export interface RepairEvent {
  /** `getTuple` or `list`. */
  operation: "getTuple" | "list";
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
 * Options of {@link SanitizingCheckpointer}. `markers`, `bridgeRole` and `onRepair` (called for each channel a
 * read repaired) are shared with the model-call middleware.
 */
export interface SanitizingCheckpointerOptions extends SharedRepairOptions<RepairEvent> {
  /** Default policy; a call overrides it with `configurable.sanitizer`. Default `"auto"`. */
  policy?: SanitizerPolicy;
  /** Channels to repair. Default: every channel whose value is a list of messages. */
  channels?: readonly string[];
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

function assertChannels(channels: unknown): void {
  if (channels === undefined) return;
  if (!Array.isArray(channels) || channels.length === 0 || !channels.every((c) => typeof c === "string" && c !== "")) {
    throw new TypeError(`channels must be a non-empty array of channel names (strings), got ${JSON.stringify(channels)}.`);
  }
}

/** Options of {@link SanitizingCheckpointer}, validated and resolved. @internal */
export interface ResolvedSanitizerOptions {
  policy: SanitizerPolicy;
  settings: TupleRepairSettings;
  onRepair: ((event: RepairEvent) => void) | undefined;
}

/**
 * Validates `options` and resolves them, throwing a `TypeError` that names the bad option. Shared with
 * `sanitizeGraph`, which validates when it is called, before any checkpointer exists to wrap.
 * @internal
 */
export function resolveSanitizerOptions(options: SanitizingCheckpointerOptions = {}): ResolvedSanitizerOptions {
  const policy = options.policy ?? "auto";
  assertOneOf("policy", policy, POLICIES);
  assertChannels(options.channels);
  const { repair, onRepair } = resolveRepairOptions(options);
  return { policy, onRepair, settings: { channels: options.channels ? [...options.channels] : undefined, repair } };
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
 * `interrupt()`, a finished thread and time travel keep their tail as it is
 * (the tail policy), so `Command({ resume })` behaves as with the wrapped saver.
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

  private readonly policy: SanitizerPolicy;
  private readonly settings: TupleRepairSettings;
  private readonly onRepair: ((event: RepairEvent) => void) | undefined;

  constructor(inner: BaseCheckpointSaver<V>, options: SanitizingCheckpointerOptions = {}) {
    assertSaver(inner);
    super(inner.serde);
    const resolved = resolveSanitizerOptions(options);
    this.inner = inner;
    this.policy = resolved.policy;
    this.onRepair = resolved.onRepair;
    this.settings = resolved.settings;
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const policy = policyFor(config, this.policy);
    const tuple = await this.inner.getTuple(config);
    if (tuple === undefined) return undefined;
    return this.sanitize(tuple, tailModeForGetTuple(policy, config, tuple), "getTuple");
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const tail = tailModeForList(policyFor(config, this.policy));
    for await (const tuple of this.inner.list(config, options)) yield this.sanitize(tuple, tail, "list");
  }

  override put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
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

  /** Delta channels are rebuilt from the stored writes, which the sanitizer never changes. */
  override getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    return this.inner.getDeltaChannelHistory(options);
  }

  private sanitize(tuple: CheckpointTuple, tail: TailMode | "off", operation: RepairEvent["operation"]): CheckpointTuple {
    if (tail === "off") return tuple;
    const { tuple: result, repaired } = sanitizeTuple(tuple, tail, this.settings);
    if (this.onRepair && repaired.length > 0) {
      const configurable = tuple.config.configurable ?? {};
      for (const { channel, repairs } of repaired) {
        this.onRepair({
          operation,
          threadId: configurable.thread_id,
          checkpointNs: configurable.checkpoint_ns ?? "",
          checkpointId: configurable.checkpoint_id ?? tuple.checkpoint.id,
          channel,
          tail,
          repairs,
        });
      }
    }
    return result;
  }
}
