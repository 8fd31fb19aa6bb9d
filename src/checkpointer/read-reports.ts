import type { Repair } from "../repair/report/catalog.js";
import type { TailKind } from "../repair/repair-messages.js";
import type { SpanLike } from "../telemetry/open-telemetry-api.js";
import { ReadTelemetry } from "../telemetry/read-telemetry.js";
import type { TelemetryOption } from "../telemetry/telemetry-option.js";
import type { ChannelRepairs } from "./sanitize-tuple.js";

/** Reported through `onRepair` for each channel a read repaired. */
export interface RepairEvent {
  /**
   * `getDeltaChannelHistory` for a delta channel (`MessagesDeltaValue`); `input` for a run's input that no stored
   * history precedes (a new thread, or under `sanitizeGraph` a graph without a checkpointer).
   */
  operation: "getTuple" | "list" | "getDeltaChannelHistory" | "input";
  threadId: string | undefined;
  checkpointNs: string;
  /** "" for `input`. */
  checkpointId: string;
  channel: string;
  tail: TailKind;
  /** Removed messages are included whole. */
  repairs: Repair[];
}

const NO_REPAIRS: readonly Repair[] = [];
const allRepairs = (repaired: readonly ChannelRepairs[]) =>
  repaired.length === 0 ? NO_REPAIRS : repaired.flatMap((c) => c.repairs);

/** A read's repairs, counted and timed (OpenTelemetry) and passed to `onRepair` channel by channel. @internal */
export class ReadReports {
  readonly telemetry: ReadTelemetry | undefined;
  private readonly provider: string;

  constructor(
    private readonly onRepair: ((event: RepairEvent) => void) | undefined,
    telemetry: TelemetryOption | undefined,
    provider: string | undefined,
    saver?: string,
  ) {
    this.telemetry = ReadTelemetry.create(telemetry, { entryPoint: "checkpointer", saver });
    this.provider = provider ?? "none";
  }

  /** `started` from `telemetry.begin()`; a read without it is counted, not timed. `span`: the read's own. */
  done(
    operation: RepairEvent["operation"],
    configurable: Record<string, unknown>,
    checkpointId: string,
    tail: TailKind,
    repaired: readonly ChannelRepairs[],
    started?: number,
    span?: SpanLike,
  ): void {
    this.telemetry?.record(operation, tail, this.provider, allRepairs(repaired), started, span);
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
