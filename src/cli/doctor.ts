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
import {
  hasPendingInterrupt,
  hasPendingTasks,
  SanitizingCheckpointer,
  type MarkerOption,
  type PatternId,
  type ProviderRules,
  type RepairEvent,
} from "../index.js";
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
  markers?: MarkerOption;
  /** Whose own rules to repair too, as the checkpointer's `provider` option. */
  provider?: ProviderRules;
  /** The model the threads go to, as the checkpointer's `model` option. */
  model?: string;
  /** `false` when OpenAI keeps nothing of the app's responses, as the checkpointer's `store` option. */
  store?: boolean;
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

/** Metadata LangGraph keeps for delta channels, after `snapshotted` got a snapshot (its counters restart). */
function deltaMetadata(metadata: CheckpointMetadata | undefined, snapshotted: readonly string[]) {
  const kept: Partial<CheckpointMetadata> & Record<string, unknown> = {};
  if ((metadata as Record<string, unknown> | undefined)?.delta_writes_versioned === true)
    kept.delta_writes_versioned = true;
  const counters = Object.entries(metadata?.counters_since_delta_snapshot ?? {}).filter(
    ([c]) => !snapshotted.includes(c),
  );
  if (counters.length > 0) kept.counters_since_delta_snapshot = Object.fromEntries(counters);
  return kept;
}

/**
 * Stores the repaired channels as a new checkpoint after the one `repaired` was read from; returns its id. A repaired delta
 * channel is stored as a snapshot of its repaired list, which the graph and the raw saver read as is.
 */
async function storeRepair(
  saver: BaseCheckpointSaver,
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
    step: (repaired.metadata?.step ?? -1) + 1,
    parents: repaired.metadata?.parents ?? {},
    ...deltaMetadata(repaired.metadata, Object.keys(snapshots)),
    sanitizer: { repairedChannels: channels },
  };
  await saver.put(repaired.config, checkpoint, metadata, newVersions);
  return checkpoint.id;
}

/**
 * What a sanitizing read of the latest checkpoint of `config` repairs, by reading it through a
 * {@link SanitizingCheckpointer} as a graph would (the tuple, then the delta channels it does not store),
 * so the doctor and the runtime judge a thread alike.
 */
async function sanitizingRead(
  reader: SanitizingCheckpointer,
  events: RepairEvent[],
  config: { configurable: ThreadConfig },
) {
  events.length = 0;
  const tuple = await reader.getTuple(config);
  if (tuple === undefined) return undefined;
  const deltaChannels = unstoredDeltaChannels(tuple);
  const histories =
    deltaChannels.length > 0
      ? await reader.getDeltaChannelHistory({ config: tuple.config, channels: deltaChannels })
      : {};
  // A repaired delta channel comes back as a seed holding its repaired list: stored as is, the graph reads that list.
  const snapshots: Record<string, unknown> = {};
  for (const event of events) {
    if (event.operation === "getDeltaChannelHistory") snapshots[event.channel] = histories[event.channel]!.seed;
  }
  return { tuple, repaired: [...events], snapshots };
}

type ThreadConfig = { thread_id: string; checkpoint_ns: string };

/** Scans the latest checkpoint of every thread and namespace of `store`. */
export async function runDoctor(store: OpenStore, options: DoctorOptions): Promise<DoctorReport> {
  const report: DoctorReport = {
    store: store.description,
    scanned: 0,
    broken: 0,
    fixed: 0,
    patterns: {},
    threadsByPattern: {},
    threads: [],
  };
  const events: RepairEvent[] = [];
  const reader = new SanitizingCheckpointer(store.saver, {
    markers: options.markers,
    provider: options.provider,
    model: options.model,
    store: options.store,
    onRepair: (event) => events.push(event),
    // Recorded when the doctor runs under an OpenTelemetry SDK (docs/observability.md).
    telemetry: { entryPoint: "doctor" },
  });
  for await (const ref of store.threads({ threadId: options.threadId, checkpointNs: options.checkpointNs })) {
    if (options.limit !== undefined && report.scanned >= options.limit) break;
    report.scanned++;
    options.onProgress?.(report.scanned);
    const read = await sanitizingRead(reader, events, {
      configurable: { thread_id: ref.threadId, checkpoint_ns: ref.checkpointNs },
    });
    if (read === undefined || read.repaired.length === 0) continue;
    const { tuple, repaired, snapshots } = read;

    const patterns: Partial<Record<PatternId, number>> = {};
    for (const { repairs } of repaired) for (const { code } of repairs) patterns[code] = (patterns[code] ?? 0) + 1;
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
      finding.fixedCheckpointId = await storeRepair(
        store.saver,
        tuple,
        repaired.map((c) => c.channel),
        snapshots,
      );
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
