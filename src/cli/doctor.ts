// `fix` stores a repair as a new checkpoint, so the old one stays in history and time travel undoes it.
import { setImmediate } from "node:timers/promises";
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
  type SanitizingCheckpointerOptions,
  type MarkerOption,
  type PatternId,
  type ProviderChoice,
  type RepairEvent,
} from "../index.js";
import { latestView } from "./latest-view.js";
import { readAhead } from "../read-ahead.js";
import { inShard, type Shard } from "./shard.js";
import type { OpenStore, ThreadRef } from "./store.js";

export type DoctorAction = "would-fix" | "fixed" | "paused-at-interrupt";

export interface ThreadFinding extends ThreadRef {
  checkpointId: string;
  /** Repairs by pattern id. */
  patterns: Partial<Record<PatternId, number>>;
  interrupted: boolean;
  pendingTasks: boolean;
  action: DoctorAction;
  fixedCheckpointId?: string;
}

export interface DoctorReport {
  store: string;
  scanned: number;
  broken: number;
  fixed: number;
  /** Broken threads paused at an interrupt, left alone (counted in `broken`). */
  paused: number;
  /** Repairs by pattern id, over all broken threads. */
  patterns: Partial<Record<PatternId, number>>;
  threadsByPattern: Partial<Record<PatternId, number>>;
  /** Sorted by namespace, then thread id. */
  threads: ThreadFinding[];
  /** Set when a signal stopped the scan: where `--after` / `--resume` continue. */
  stopped?: { signal: string; after: ThreadRef | null };
}

export interface DoctorProgress {
  scanned: number;
  /** Estimated when sharded. */
  total?: number;
  estimated: boolean;
  broken: number;
  fixed: number;
}

export interface DoctorOptions {
  fix: boolean;
  threadId?: string;
  checkpointNs?: string;
  /** In the report's order (a stopped run's `stopped.after`). */
  after?: ThreadRef;
  shard?: Shard;
  /** At most this many (thread, namespace) pairs. */
  limit?: number;
  // As the checkpointer's options of the same names.
  markers?: MarkerOption;
  provider?: ProviderChoice;
  model?: string;
  store?: boolean;
  /** Batches in flight finish, their fixes whole, and the report so far is returned. */
  signal?: AbortSignal;
  onProgress?: (progress: DoctorProgress) => void;
}

/** Delta channels whose lists `tuple` does not store: the graph rebuilds them from earlier checkpoints' writes. */
function unstoredDeltaChannels(tuple: CheckpointTuple): string[] {
  const counters = tuple.metadata?.counters_since_delta_snapshot ?? {};
  return Object.keys(counters).filter((channel) => tuple.checkpoint.channel_values[channel] === undefined);
}

/** Snapshotted channels' step counters restart. */
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

/** A repaired delta channel is stored as a snapshot of its list, which the graph and the raw saver read as is. */
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

/** Read through a {@link SanitizingCheckpointer} as a graph would, so the doctor and the runtime agree. */
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
  const snapshots: Record<string, unknown> = {};
  for (const event of events) {
    if (event.operation === "getDeltaChannelHistory") snapshots[event.channel] = histories[event.channel]!.seed;
  }
  return { tuple, repaired: [...events], snapshots };
}

type ThreadConfig = { thread_id: string; checkpoint_ns: string };

/** Threads read in one query or pipeline. */
const BATCH = 100;
const WORKERS = 4;

/** The last thread listed up to it, since shard filtering skips some. */
interface Batch {
  refs: ThreadRef[];
  through: ThreadRef;
}

async function* batches(pages: AsyncIterable<ThreadRef[]>, options: DoctorOptions): AsyncGenerator<Batch> {
  let taken = 0;
  for await (const page of pages) {
    for (let start = 0; start < page.length; start += BATCH) {
      if (options.signal?.aborted) return;
      const listed = page.slice(start, start + BATCH);
      let refs = options.shard ? listed.filter((r) => inShard(r.threadId, options.shard!)) : listed;
      if (options.limit !== undefined) refs = refs.slice(0, options.limit - taken);
      taken += refs.length;
      if (refs.length > 0) yield { refs, through: listed[listed.length - 1]! };
      if (taken === options.limit) return;
    }
  }
}

/** Batches are read in one query each and judged by a few workers at once; findings are added in order. */
export async function runDoctor(store: OpenStore, options: DoctorOptions): Promise<DoctorReport> {
  const report: DoctorReport = {
    store: store.description,
    scanned: 0,
    broken: 0,
    fixed: 0,
    paused: 0,
    patterns: {},
    threadsByPattern: {},
    threads: [],
  };
  const listing = store.threads({
    threadId: options.threadId,
    checkpointNs: options.checkpointNs,
    after: options.after,
  });
  let total: number | undefined;
  void listing.total.then((n) => {
    if (n === undefined) return;
    total = options.shard ? Math.round(n / options.shard.count) : n;
    if (options.limit !== undefined) total = Math.min(total, options.limit);
  });

  const finished = new Map<number, { findings: ThreadFinding[]; batch: Batch }>();
  let nextToAdd = 0;
  let lastAdded: ThreadRef | null = options.after ?? null;
  const add = () => {
    for (let done = finished.get(nextToAdd); done !== undefined; done = finished.get(nextToAdd)) {
      finished.delete(nextToAdd++);
      report.scanned += done.batch.refs.length;
      lastAdded = done.batch.through;
      for (const finding of done.findings) record(report, finding);
    }
    options.onProgress?.({
      scanned: report.scanned,
      total,
      estimated: options.shard !== undefined,
      broken: report.broken,
      fixed: report.fixed,
    });
  };

  const queue = batches(readAhead(listing.pages), options);
  let sequence = 0;
  const worker = async () => {
    const view = latestView(store);
    const events: RepairEvent[] = [];
    const readerOptions: SanitizingCheckpointerOptions = {
      markers: options.markers,
      provider: options.provider,
      model: options.model,
      store: options.store,
      onRepair: (event) => events.push(event),
      telemetry: { entryPoint: "doctor" },
    };
    // Async generators queue concurrent next() calls: each worker takes the next batch in order.
    for (let next = await queue.next(); !next.done; next = await queue.next()) {
      const batch = next.value;
      const position = sequence++;
      // A reader per batch (validating its options takes about 20 µs): one reader for the whole scan let its last 512
      // read decisions (kept for a graph's next reads) age into the old generation, growing the heap with the store.
      const reader = new SanitizingCheckpointer(view.saver, readerOptions);
      await view.load(batch.refs);
      finished.set(position, { findings: await judge(store, reader, events, batch.refs, options), batch });
      add();
      // A synchronous store (SQLite) resolves every promise at once: yield a turn per batch so a signal gets through.
      await setImmediate();
    }
  };
  try {
    await Promise.all(Array.from({ length: WORKERS }, worker));
  } finally {
    await queue.return(undefined);
  }
  if (options.signal?.aborted) report.stopped = { signal: String(options.signal.reason ?? "signal"), after: lastAdded };
  return report;
}

/** A batch's fixes are written together, each as one checkpoint. */
async function judge(
  store: OpenStore,
  reader: SanitizingCheckpointer,
  events: RepairEvent[],
  refs: ThreadRef[],
  options: DoctorOptions,
): Promise<ThreadFinding[]> {
  const findings: ThreadFinding[] = [];
  const fixes: Promise<void>[] = [];
  for (const ref of refs) {
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
      const channels = repaired.map((c) => c.channel);
      fixes.push(
        storeRepair(store.saver, tuple, channels, snapshots).then((id) => {
          finding.fixedCheckpointId = id;
          finding.action = "fixed";
        }),
      );
    }
    findings.push(finding);
  }
  await Promise.all(fixes);
  return findings;
}

function record(report: DoctorReport, finding: ThreadFinding): void {
  report.broken++;
  if (finding.action === "fixed") report.fixed++;
  if (finding.action === "paused-at-interrupt") report.paused++;
  for (const [code, count] of Object.entries(finding.patterns) as [PatternId, number][]) {
    report.patterns[code] = (report.patterns[code] ?? 0) + count;
    report.threadsByPattern[code] = (report.threadsByPattern[code] ?? 0) + 1;
  }
  report.threads.push(finding);
}
