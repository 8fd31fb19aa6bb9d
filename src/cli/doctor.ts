/**
 * The doctor: finds the threads a SanitizingCheckpointer would repair, and
 * with `fix` stores the repair as a new checkpoint, so the old one stays in
 * history and the fix can be undone by time travel.
 */
import {
  copyCheckpoint,
  uuid6,
  type BaseCheckpointSaver,
  type CheckpointMetadata,
  type CheckpointTuple,
} from "@langchain/langgraph-checkpoint";
import { DeltaReads } from "../checkpointer/delta-reads.js";
import { ReadDecisions, decisionFor } from "../checkpointer/read-decisions.js";
import { sanitizeTuple, type ChannelRepairs, type TupleRepairSettings } from "../checkpointer/sanitize-tuple.js";
import { tailModeForGetTuple } from "../checkpointer/tail-policy.js";
import { hasPendingInterrupt, hasPendingTasks } from "../checkpointer/thread-state.js";
import type { PatternId } from "../repair/patterns.js";
import type { TailMode } from "../repair/repair-messages.js";
import type { OpenStore, ThreadRef } from "./store.js";

/** What the doctor did, or would do, with one broken thread. */
export type DoctorAction = "would-fix" | "fixed" | "paused-at-interrupt";

/** One thread (in one namespace) whose latest checkpoint needs repair. */
export interface ThreadFinding extends ThreadRef {
  checkpointId: string;
  /** Repairs by pattern id. */
  patterns: Partial<Record<PatternId, number>>;
  interrupted: boolean;
  pendingTasks: boolean;
  action: DoctorAction;
  /** The checkpoint `fix` wrote. */
  fixedCheckpointId?: string;
}

export interface DoctorReport {
  store: string;
  scanned: number;
  broken: number;
  fixed: number;
  /** Repairs by pattern id, over all broken threads. */
  patterns: Partial<Record<PatternId, number>>;
  /** Threads by pattern id. */
  threadsByPattern: Partial<Record<PatternId, number>>;
  threads: ThreadFinding[];
}

export interface DoctorOptions {
  fix: boolean;
  threadId?: string;
  checkpointNs?: string;
  /** Scan at most this many (thread, namespace) pairs. */
  limit?: number;
  repair: TupleRepairSettings["repair"];
  onProgress?: (scanned: number) => void;
}

/**
 * The delta channels (`MessagesDeltaValue`) whose lists `tuple` does not store: the graph rebuilds them
 * from the writes of earlier checkpoints. LangGraph counts steps since the last snapshot for each.
 */
function unstoredDeltaChannels(tuple: CheckpointTuple): string[] {
  const counters = tuple.metadata?.counters_since_delta_snapshot ?? {};
  return Object.keys(counters).filter((channel) => tuple.checkpoint.channel_values[channel] === undefined);
}

/**
 * The repairs a sanitizing read of `tuple` makes to its delta channels, as the snapshot each repaired
 * channel would get (a seed holding the repaired list, which is what the read hands the graph).
 */
async function deltaRepairs(
  saver: BaseCheckpointSaver,
  tuple: CheckpointTuple,
  tail: TailMode,
  settings: TupleRepairSettings,
) {
  const channels = unstoredDeltaChannels(tuple);
  let repaired: ChannelRepairs[] = [];
  if (channels.length === 0) return { snapshots: {}, repaired };
  const decisions = new ReadDecisions();
  decisions.record(tuple, decisionFor(tuple, tail, true));
  const reads = new DeltaReads(saver, settings, "auto", decisions, (_config, _tail, found) => (repaired = found));
  const histories = await reads.read({ config: tuple.config, channels });
  const snapshots = Object.fromEntries(repaired.map(({ channel }) => [channel, histories[channel]!.seed]));
  return { snapshots, repaired };
}

/** Metadata LangGraph keeps for delta channels, after `snapshotted` got a snapshot (its counters restart). */
function deltaMetadata(metadata: CheckpointMetadata | undefined, snapshotted: readonly string[]) {
  const kept: Partial<CheckpointMetadata> & Record<string, unknown> = {};
  if ((metadata as Record<string, unknown> | undefined)?.delta_writes_versioned === true) kept.delta_writes_versioned = true;
  const counters = Object.entries(metadata?.counters_since_delta_snapshot ?? {}).filter(([c]) => !snapshotted.includes(c));
  if (counters.length > 0) kept.counters_since_delta_snapshot = Object.fromEntries(counters);
  return kept;
}

/**
 * Stores the repaired channels as a new checkpoint after `tuple`; returns its id. A repaired delta
 * channel is stored as a snapshot of its repaired list, which the graph and the raw saver read as is.
 */
async function storeRepair(
  saver: BaseCheckpointSaver,
  tuple: CheckpointTuple,
  repaired: CheckpointTuple,
  channels: string[],
  snapshots: Record<string, unknown>,
): Promise<string> {
  const checkpoint = copyCheckpoint(repaired.checkpoint);
  checkpoint.id = uuid6(-1);
  checkpoint.ts = new Date().toISOString();
  Object.assign(checkpoint.channel_values, snapshots);
  const newVersions: Record<string, number | string> = {};
  for (const channel of channels) {
    const version = saver.getNextVersion(checkpoint.channel_versions[channel] as number | undefined);
    checkpoint.channel_versions[channel] = version;
    newVersions[channel] = version;
  }
  const metadata = {
    source: "update" as const,
    step: (tuple.metadata?.step ?? -1) + 1,
    parents: tuple.metadata?.parents ?? {},
    ...deltaMetadata(tuple.metadata, Object.keys(snapshots)),
    sanitizer: { repairedChannels: channels },
  };
  await saver.put(tuple.config, checkpoint, metadata, newVersions);
  return checkpoint.id;
}

/** Scans the latest checkpoint of every thread and namespace of `store`. */
export async function runDoctor(store: OpenStore, options: DoctorOptions): Promise<DoctorReport> {
  const report: DoctorReport = { store: store.description, scanned: 0, broken: 0, fixed: 0, patterns: {}, threadsByPattern: {}, threads: [] };
  const settings: TupleRepairSettings = { channels: undefined, repair: options.repair };
  for await (const ref of store.threads({ threadId: options.threadId, checkpointNs: options.checkpointNs })) {
    if (options.limit !== undefined && report.scanned >= options.limit) break;
    report.scanned++;
    options.onProgress?.(report.scanned);
    const config = { configurable: { thread_id: ref.threadId, checkpoint_ns: ref.checkpointNs } };
    const tuple = await store.saver.getTuple(config);
    if (!tuple) continue;
    // Judge the thread as a sanitizing read of it would.
    const tail = tailModeForGetTuple("auto", config, tuple);
    if (tail === "off") continue;
    const { tuple: repaired, repaired: listChannels } = sanitizeTuple(tuple, tail, settings);
    const delta = await deltaRepairs(store.saver, tuple, tail, settings);
    const channels = [...listChannels, ...delta.repaired];
    if (channels.length === 0) continue;

    const patterns: Partial<Record<PatternId, number>> = {};
    for (const { repairs } of channels) for (const { code } of repairs) patterns[code] = (patterns[code] ?? 0) + 1;
    const interrupted = hasPendingInterrupt(tuple.pendingWrites);
    const finding: ThreadFinding = {
      ...ref,
      checkpointId: tuple.checkpoint.id,
      patterns,
      interrupted,
      pendingTasks: hasPendingTasks(tuple.checkpoint),
      action: interrupted ? "paused-at-interrupt" : "would-fix",
    };
    if (options.fix && !interrupted) {
      const names = channels.map((c) => c.channel);
      finding.fixedCheckpointId = await storeRepair(store.saver, tuple, repaired, names, delta.snapshots);
      finding.action = "fixed";
      report.fixed++;
    }
    report.broken++;
    for (const [code, count] of Object.entries(patterns) as [PatternId, number][]) {
      report.patterns[code] = (report.patterns[code] ?? 0) + count;
      report.threadsByPattern[code] = (report.threadsByPattern[code] ?? 0) + 1;
    }
    report.threads.push(finding);
  }
  return report;
}
