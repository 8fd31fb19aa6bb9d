// A store is pruned a batch of threads at a time: read, planned, removed, and counted in the store's order, a few
// batches at once, so memory stays flat whatever the store's size.
import { readAhead } from "../read-ahead.js";
import type { ThreadPlan } from "./history.js";
import type { ResolvedPruneOptions, RetentionPolicy } from "./options.js";
import { traceOperation } from "../telemetry/operation-spans.js";
import { planRetention } from "./plan.js";
import { addThread, emptyReport, type PruneReport, type PrunedThread } from "./report.js";
import type { RetentionStore } from "./store.js";

/** Threads read in one statement or pipeline, and removed in one transaction (a MULTI each on Redis). */
const BATCH = 100;
/** Batches under way at once: one reads while another removes. */
const IN_FLIGHT = 3;

function outcome(plan: ThreadPlan): PrunedThread {
  let writes = 0;
  let bytes = 0;
  for (const head of plan.remove) {
    writes += head.writes;
    bytes += head.bytes + head.writeBytes;
  }
  for (const blob of plan.blobs) bytes += blob.bytes;
  return {
    threadId: plan.threadId,
    checkpoints: plan.remove.length,
    writes,
    blobs: plan.blobs.length,
    bytes,
    namespaces: plan.namespaces.length,
    kept: plan.kept,
    relinked: plan.relink.length,
  };
}

const changes = (plan: ThreadPlan) => plan.remove.length + plan.blobs.length + plan.relink.length > 0;

/** One batch of threads read, planned and (unless a dry run) removed, in one call a trace span wraps. @internal */
export function pruneBatch(
  store: RetentionStore,
  threadIds: readonly string[],
  policy: RetentionPolicy,
  now: number,
  { dryRun, telemetry }: Pick<ResolvedPruneOptions, "dryRun" | "telemetry">,
): Promise<PrunedThread[]> {
  const attributes = { [BATCH_ATTRIBUTES.threads]: threadIds.length, [BATCH_ATTRIBUTES.dryRun]: dryRun };
  return traceOperation(
    "prune",
    attributes,
    async (span) => {
      const plans = (await store.read(threadIds)).map((history) => planRetention(history, policy, now));
      if (!dryRun) await store.apply(plans.filter(changes));
      const pruned = plans.map(outcome);
      span?.setAttributes(countsOf(pruned));
      return pruned;
    },
    telemetry,
  );
}

/** Counts, never ids or content. */
const BATCH_ATTRIBUTES = {
  threads: "checkpoint_sanitizer.prune.threads",
  dryRun: "checkpoint_sanitizer.prune.dry_run",
  checkpoints: "checkpoint_sanitizer.prune.checkpoints",
  writes: "checkpoint_sanitizer.prune.writes",
  bytes: "checkpoint_sanitizer.prune.bytes",
} as const;

function countsOf(pruned: readonly PrunedThread[]) {
  let checkpoints = 0;
  let writes = 0;
  let bytes = 0;
  for (const thread of pruned) {
    checkpoints += thread.checkpoints;
    writes += thread.writes;
    bytes += thread.bytes;
  }
  return {
    [BATCH_ATTRIBUTES.checkpoints]: checkpoints,
    [BATCH_ATTRIBUTES.writes]: writes,
    [BATCH_ATTRIBUTES.bytes]: bytes,
  };
}

async function* batches(pages: AsyncIterable<string[]>): AsyncGenerator<string[]> {
  for await (const page of pages)
    for (let start = 0; start < page.length; start += BATCH) yield page.slice(start, start + BATCH);
}

/** @internal */
export async function runPrune(store: RetentionStore, options: ResolvedPruneOptions): Promise<PruneReport> {
  const { keepLast, olderThan, dryRun, signal } = options;
  const report = emptyReport(store.description, dryRun, keepLast, olderThan);
  const now = Date.now();
  const listing = store.threads({ threadId: options.threadId, after: options.after });
  let total: number | undefined;
  void listing.total.then((n) => (total = n));
  let after: string | null = options.after ?? null;

  const inFlight: { threadIds: string[]; done: Promise<PrunedThread[]> }[] = [];
  const settleOldest = async () => {
    const { threadIds, done } = inFlight.shift()!;
    for (const thread of await done) {
      if (!addThread(report, thread)) continue;
      if (options.onThread) options.onThread(thread);
      else report.threads.push(thread);
    }
    after = threadIds[threadIds.length - 1]!;
    const { scanned, pruned } = report;
    options.onProgress?.({ scanned, total, pruned, checkpoints: report.removed.checkpoints });
  };
  for await (const threadIds of batches(readAhead(listing.pages))) {
    if (signal?.aborted) break;
    const done = pruneBatch(store, threadIds, { keepLast, olderThan }, now, options);
    // Awaited in order below; handled now so a failure waits for its turn.
    done.catch(() => {});
    inFlight.push({ threadIds, done });
    if (inFlight.length >= IN_FLIGHT) await settleOldest();
    // A synchronous store (SQLite) resolves every promise at once: a turn per batch lets a signal through.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  while (inFlight.length > 0) await settleOldest();
  if (signal?.aborted) report.stopped = { signal: String(signal.reason ?? "signal"), after };
  return report;
}
