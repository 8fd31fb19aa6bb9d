// Which checkpoints of a thread retention keeps: those the policy promises (the newest N, those newer than the age, the
// newest of each live namespace), and every checkpoint a read of a kept one needs (why: docs/retention.md).
import { MAX_INPUT_ANCESTORS, MAX_RUN_STEPS } from "../checkpointer/read-reach.js";
import { checkpointTime } from "./checkpoint-time.js";
import type { CheckpointHead, Relink, StoredBlob, ThreadHistory, ThreadPlan } from "./history.js";
import type { RetentionPolicy } from "./options.js";

/** Checkpoint format 4 moved pending sends into the checkpoint; older ones read them from the parent's writes. */
const SENDS_IN_CHECKPOINT = 4;

/** LangGraph's `getParentCheckpointNamespace`. */
function parentNamespace(ns: string): string {
  const parts = ns.split("|");
  while (parts.length > 1 && /^\d+$/.test(parts[parts.length - 1]!)) parts.pop();
  return parts.slice(0, -1).join("|");
}

/**
 * A subgraph namespace names its task (`node:<task id>`) and belongs to the parent checkpoint that ran the task; a
 * `checkpointer: true` subgraph's (no task id) lives across its parent's runs, as the root does.
 */
const belongsToTask = (ns: string) => ns.includes(":");

class ThreadCheckpoints {
  /** Newest first, by namespace. */
  readonly byNamespace = new Map<string, CheckpointHead[]>();
  private readonly byId = new Map<string, Map<string, CheckpointHead>>();

  constructor(heads: readonly CheckpointHead[]) {
    for (const head of heads) {
      const list = this.byNamespace.get(head.checkpointNs) ?? [];
      list.push(head);
      this.byNamespace.set(head.checkpointNs, list);
      const ids = this.byId.get(head.checkpointNs) ?? new Map<string, CheckpointHead>();
      ids.set(head.checkpointId, head);
      this.byId.set(head.checkpointNs, ids);
    }
    for (const list of this.byNamespace.values())
      list.sort((a, b) => (a.checkpointId < b.checkpointId ? 1 : a.checkpointId > b.checkpointId ? -1 : 0));
  }

  get(ns: string, id: string | null | undefined): CheckpointHead | undefined {
    return id == null ? undefined : this.byId.get(ns)?.get(id);
  }

  parent(head: CheckpointHead): CheckpointHead | undefined {
    return this.get(head.checkpointNs, head.parentId);
  }

  /** Parent, grandparent and on; a store whose links loop (a corrupt one) ends the walk where it repeats. */
  *ancestors(head: CheckpointHead): Generator<CheckpointHead> {
    const seen = new Set([head]);
    for (let at = this.parent(head); at !== undefined && !seen.has(at); at = this.parent(at)) {
      seen.add(at);
      yield at;
    }
  }

  /** The parent checkpoint a task's namespace belongs to, when it is stored. */
  owner(ns: string): CheckpointHead | undefined {
    if (!belongsToTask(ns)) return undefined;
    const parentNs = parentNamespace(ns);
    return this.get(parentNs, this.byNamespace.get(ns)![0]!.parents[parentNs]);
  }
}

/** The kept set, closed under what reads of its members need. */
class KeptSet {
  readonly kept = new Set<CheckpointHead>();
  private readonly todo: CheckpointHead[] = [];

  constructor(private readonly thread: ThreadCheckpoints) {}

  keep(head: CheckpointHead | undefined): void {
    if (head === undefined || this.kept.has(head)) return;
    this.kept.add(head);
    this.todo.push(head);
  }

  /** What a read of any kept checkpoint needs, until nothing is added. */
  close(): void {
    for (let head = this.todo.pop(); head !== undefined; head = this.todo.pop()) {
      this.keepDeltaChains(head);
      const parent = this.thread.parent(head);
      if ((head.format ?? 0) < SENDS_IN_CHECKPOINT && parent?.sends !== false) this.keep(parent);
      for (const [ns, id] of Object.entries(head.parents)) this.keep(this.thread.get(ns, id));
    }
  }

  /** A delta channel is rebuilt from the writes of each ancestor up to the nearest that holds its value. */
  private keepDeltaChains(head: CheckpointHead): void {
    for (const channel of head.deltaChannels) {
      for (const at of this.thread.ancestors(head)) {
        this.keep(at);
        if (!at.deltaChannels.includes(channel)) break;
      }
    }
  }

  /** The newest checkpoint's reads: stranded results in input checkpoints' parents, a breakpoint's parent. */
  keepLatestNeeds(latest: CheckpointHead): void {
    let at = latest;
    for (let n = 0; n < MAX_INPUT_ANCESTORS && at.source === "input"; n++) {
      const parent = this.thread.parent(at);
      if (parent === undefined) break;
      this.keep((at = parent));
    }
    if (latest.source === "loop" && latest.pendingTasks !== false) this.keep(this.thread.parent(latest));
  }

  /** A delta read of an open tail redoes the repair its run started from: the input checkpoint and its parent. */
  keepRunStart(head: CheckpointHead): void {
    if (head.deltaChannels.length === 0) return;
    let at: CheckpointHead | undefined = head;
    for (let steps = 0; at !== undefined && at.source !== "input"; steps++) {
      if (steps >= MAX_RUN_STEPS) return;
      this.keep((at = this.thread.parent(at)));
    }
    if (at !== undefined) this.keep(this.thread.parent(at));
  }
}

function isPromised(head: CheckpointHead, rank: number, policy: RetentionPolicy, now: number): boolean {
  if (rank === 0) return true;
  if (policy.keepLast !== undefined && rank < policy.keepLast) return true;
  if (policy.olderThan === undefined) return false;
  const made = checkpointTime(head.checkpointId);
  return made === undefined || now - made < policy.olderThan;
}

/** The nearest kept ancestor along the stored parent links. */
function keptAncestor(thread: ThreadCheckpoints, kept: Set<CheckpointHead>, head: CheckpointHead): string | null {
  for (const at of thread.ancestors(head)) if (kept.has(at)) return at.checkpointId;
  return null;
}

const blobKey = (ns: string, channel: string, version: string | number) =>
  JSON.stringify([ns, channel, String(version)]);

function unreferencedBlobs(blobs: readonly StoredBlob[], kept: Set<CheckpointHead>): StoredBlob[] {
  const referenced = new Set<string>();
  for (const head of kept)
    for (const [channel, version] of Object.entries(head.channelVersions ?? {}))
      referenced.add(blobKey(head.checkpointNs, channel, version));
  return blobs.filter((blob) => !referenced.has(blobKey(blob.checkpointNs, blob.channel, blob.version)));
}

/** What to keep and remove of `history`, `now` the time the run started (milliseconds). @internal */
export function planRetention(history: ThreadHistory, policy: RetentionPolicy, now: number): ThreadPlan {
  const thread = new ThreadCheckpoints(history.checkpoints);
  const set = new KeptSet(thread);
  const seeded = new Set<string>();
  // A task's namespace lives while its parent checkpoint is kept; keeping one may keep the parent of another.
  for (let grew = true; grew;) {
    grew = false;
    for (const [ns, newestFirst] of thread.byNamespace) {
      if (seeded.has(ns)) continue;
      const owner = thread.owner(ns);
      if (owner !== undefined && !set.kept.has(owner)) continue;
      seeded.add(ns);
      grew = true;
      newestFirst.forEach((head, rank) => {
        if (!isPromised(head, rank, policy, now)) return;
        set.keep(head);
        set.keepRunStart(head);
      });
      set.keepLatestNeeds(newestFirst[0]!);
      set.close();
    }
  }
  const { kept } = set;
  const remove = history.checkpoints.filter((head) => !kept.has(head));
  const relink: Relink[] = [];
  for (const head of kept) {
    const parent = thread.parent(head);
    if (parent === undefined || kept.has(parent)) continue;
    relink.push({ head, parentId: keptAncestor(thread, kept, head) });
  }
  const namespaces = [...thread.byNamespace].filter(([, heads]) => !heads.some((h) => kept.has(h))).map(([ns]) => ns);
  const blobs = unreferencedBlobs(history.blobs, kept);
  return { threadId: history.threadId, remove, relink, blobs, namespaces, kept: kept.size };
}
