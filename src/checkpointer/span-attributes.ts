/** What each operation's span records: counts and sizes, never a value (docs/observability.md#spans). */
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointTuple,
  DeltaChannelHistory,
  PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { isDeltaSnapshot } from "../langgraph-features.js";
import { isMessageLike } from "../messages/message-view.js";
import { ATTRIBUTES } from "../telemetry/metrics.js";
import type { TelemetryAttributes } from "../telemetry/open-telemetry-api.js";
import { SPAN_ATTRIBUTES, type OperationSpan } from "../telemetry/operation-spans.js";
import type { ChannelRepairs } from "./sanitize-tuple.js";

/** Messages in the message channels of `values` (`channels`, or every channel holding a list of messages). */
function messageCount(values: Record<string, unknown> | undefined, channels: readonly string[] | undefined): number {
  let count = 0;
  if (values === undefined) return count;
  for (const channel of channels ?? Object.keys(values)) {
    const stored = values[channel];
    const value = isDeltaSnapshot(stored) ? stored.value : stored;
    if (Array.isArray(value) && isMessageLike(value[0])) count += value.length;
  }
  return count;
}

/** What a read returned and what its repair did; written to the read's span when it ends. @internal */
export class ReadTally {
  private checkpoints = 0;
  private messages = 0;
  private pendingWrites = 0;
  private repairs = 0;
  private readonly codes = new Set<string>();
  private tail: string | undefined;

  /** `tuples`: a `getTuple` or `list`, whose checkpoints are counted (a delta history read has none). */
  constructor(
    readonly span: NonNullable<OperationSpan>,
    private readonly channels: readonly string[] | undefined,
    private readonly tuples: boolean,
  ) {}

  /** A tuple returned as read with `tail`. */
  add(tuple: CheckpointTuple, tail: string, repaired: readonly ChannelRepairs[]): void {
    this.checkpoints++;
    this.messages += messageCount(tuple.checkpoint.channel_values, this.channels);
    this.pendingWrites += tuple.pendingWrites?.length ?? 0;
    this.repaired(tail, repaired);
  }

  /** A read's repairs, tuple or delta history, by channel. */
  repaired(tail: string, repaired: readonly ChannelRepairs[]): void {
    this.tail = tail;
    for (const { repairs } of repaired) {
      this.repairs += repairs.length;
      for (const { code } of repairs) this.codes.add(code);
    }
  }

  /** Sets what was counted on the span, and `extra`. */
  end(extra?: TelemetryAttributes): void {
    const patterns = [...this.codes].sort().join(",");
    this.span.setAttributes({
      ...(this.tuples
        ? {
            [SPAN_ATTRIBUTES.checkpoints]: this.checkpoints,
            [SPAN_ATTRIBUTES.messages]: this.messages,
            [SPAN_ATTRIBUTES.pendingWrites]: this.pendingWrites,
          }
        : {}),
      ...(this.tail !== undefined
        ? { [ATTRIBUTES.tail]: this.tail, [ATTRIBUTES.outcome]: patterns === "" ? "clean" : "repaired" }
        : {}),
      ...(patterns !== "" ? { [ATTRIBUTES.patterns]: patterns, [ATTRIBUTES.count]: this.repairs } : {}),
      ...extra,
    });
  }
}

/** `getTuple`: the checkpoint found, which a config without an id or namespace does not name. */
export function foundAttributes({ config, checkpoint }: CheckpointTuple): TelemetryAttributes {
  return {
    [SPAN_ATTRIBUTES.checkpointNs]: (config.configurable?.checkpoint_ns as string | undefined) ?? "",
    [SPAN_ATTRIBUTES.checkpointId]: checkpoint.id,
  };
}

/** `put`: the checkpoint written, its step, source, updated channels and messages. */
export function putAttributes(
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata | undefined,
  newVersions: ChannelVersions,
  channels: readonly string[] | undefined,
): TelemetryAttributes {
  return {
    [SPAN_ATTRIBUTES.checkpointId]: checkpoint.id,
    [SPAN_ATTRIBUTES.updatedChannels]: Object.keys(newVersions).length,
    [SPAN_ATTRIBUTES.messages]: messageCount(checkpoint.channel_values, channels),
    ...(typeof metadata?.source === "string" ? { [SPAN_ATTRIBUTES.source]: metadata.source } : {}),
    ...(typeof metadata?.step === "number" ? { [SPAN_ATTRIBUTES.step]: metadata.step } : {}),
  };
}

/** `putWrites`: how many, and to which channels. */
export function writesAttributes(writes: readonly PendingWrite[]): TelemetryAttributes {
  return {
    [SPAN_ATTRIBUTES.writes]: writes.length,
    [SPAN_ATTRIBUTES.writeChannels]: [...new Set(writes.map(([channel]) => channel))],
  };
}

/** `getDeltaChannelHistory`: the channels asked for, and the writes and seeded messages returned. */
export function historyAttributes(
  channels: readonly string[],
  histories: Record<string, DeltaChannelHistory>,
): TelemetryAttributes {
  let writes = 0;
  let messages = 0;
  for (const { seed, writes: channelWrites } of Object.values(histories)) {
    writes += channelWrites?.length ?? 0;
    messages += messageCount({ seed }, undefined);
  }
  return {
    [SPAN_ATTRIBUTES.writeChannels]: [...channels],
    [SPAN_ATTRIBUTES.writes]: writes,
    [SPAN_ATTRIBUTES.messages]: messages,
  };
}
