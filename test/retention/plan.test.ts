// Which checkpoints retention keeps, on histories built by hand (each rule shown failing its case when dropped) and
// on random ones (fast-check): the promise, the closure under what reads need, the relinks and the values removed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkpointTime } from "../../src/retention/checkpoint-time.js";
import type { CheckpointHead, StoredBlob, ThreadHistory, ThreadPlan } from "../../src/retention/history.js";
import { planRetention } from "../../src/retention/plan.js";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 300) };
const NOW = Date.UTC(2025, 0, 31);
const DAY = 86_400_000;

/** A version 7 UUID made `daysAgo` before NOW, `seq` ordering those of one moment. */
function idAt(daysAgo: number, seq = 0): string {
  const hex = Math.round(NOW - daysAgo * DAY)
    .toString(16)
    .padStart(12, "0");
  const rand = seq.toString(16).padStart(3, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7${rand}-8000-000000000000`;
}

function head(checkpointId: string, parentId: string | null, fields: Partial<CheckpointHead> = {}): CheckpointHead {
  return {
    checkpointNs: "",
    checkpointId,
    parentId,
    source: "loop",
    parents: {},
    deltaChannels: [],
    format: 4,
    sends: false,
    pendingTasks: undefined,
    bytes: 100,
    writes: 2,
    writeBytes: 40,
    ...fields,
  };
}

/** `n` checkpoints in a line, oldest first, ids `c01`…; the newest has no task left. */
function line(n: number, fields: (i: number) => Partial<CheckpointHead> = () => ({})): CheckpointHead[] {
  const id = (i: number) => `c${String(i).padStart(2, "0")}`;
  return Array.from({ length: n }, (_, i) =>
    head(id(i + 1), i === 0 ? null : id(i), { ...(i === n - 1 ? { pendingTasks: false } : {}), ...fields(i) }),
  );
}

const thread = (checkpoints: CheckpointHead[], blobs: StoredBlob[] = []): ThreadHistory => ({
  threadId: "t",
  checkpoints,
  blobs,
});
const plan = (history: ThreadHistory, keepLast?: number, olderThan?: number) =>
  planRetention(history, { keepLast, olderThan }, NOW);
const keptIds = (history: ThreadHistory, result: ThreadPlan) => {
  const removed = new Set(result.remove);
  return history.checkpoints
    .filter((h) => !removed.has(h))
    .map((h) => `${h.checkpointNs}/${h.checkpointId}`)
    .sort();
};

describe("checkpointTime", () => {
  it("reads the time of version 6, 1 and 7 UUIDs (RFC 9562's examples), and nothing else", () => {
    const at = Date.UTC(2022, 1, 22, 19, 22, 22);
    expect(checkpointTime("1ec9414c-232a-6b00-b3c8-9f6bdeced846")).toBe(at);
    expect(checkpointTime("C232AB00-9414-11EC-B3C8-9F6BDECED846")).toBe(at);
    expect(checkpointTime("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")).toBe(at);
    for (const id of ["1ec9414c-232a-4b00-b3c8-9f6bdeced846", "checkpoint-1", ""])
      expect(checkpointTime(id)).toBeUndefined();
  });
});

describe("planRetention", () => {
  it("keepLast keeps the newest N, relinks the oldest kept to none, and removes the rest with their writes", () => {
    const history = thread(line(6));
    const result = plan(history, 2);
    expect(keptIds(history, result)).toEqual(["/c05", "/c06"]);
    expect(result.relink).toEqual([{ head: history.checkpoints[4], parentId: null }]);
    expect(result.remove.map((h) => h.checkpointId)).toEqual(["c01", "c02", "c03", "c04"]);
    expect(result.kept).toBe(2);
    expect(plan(history, 10).remove).toEqual([]);
  });

  it("olderThan keeps what is newer; with keepLast, what either keeps", () => {
    const ages = [40, 35, 20, 10, 5];
    const ids = ages.map((age) => idAt(age));
    const history = thread(line(5).map((h, i) => ({ ...h, checkpointId: ids[i]!, parentId: ids[i - 1] ?? null })));
    const keptAges = (keepLast?: number, olderThan?: number) =>
      keptIds(history, plan(history, keepLast, olderThan))
        .map((id) => ages[ids.indexOf(id.slice(1))]!)
        .sort((a, b) => a - b);
    expect(keptAges(undefined, 30 * DAY)).toEqual([5, 10, 20]);
    expect(keptAges(1, 30 * DAY)).toEqual([5, 10, 20]);
    expect(keptAges(4, 30 * DAY)).toEqual([5, 10, 20, 35]);
    // The newest stays, however old: a thread is never removed.
    expect(keptAges(undefined, 1 * DAY)).toEqual([5]);
  });

  it("keeps the input checkpoints' parents a read takes stranded results from, up to 8", () => {
    const history = thread(line(12, (i) => ({ source: i >= 2 ? "input" : "loop" })));
    const eight = ["/c04", "/c05", "/c06", "/c07", "/c08", "/c09", "/c10", "/c11"];
    expect(keptIds(history, plan(history, 1))).toEqual([...eight, "/c12"]);
  });

  it("keeps the parent of a newest checkpoint with tasks left (a breakpoint's read), unless it has none", () => {
    const stopped = thread(line(4, (i) => (i === 3 ? { pendingTasks: true } : {})));
    expect(keptIds(stopped, plan(stopped, 1))).toEqual(["/c03", "/c04"]);
    const unknown = thread(line(4, (i) => (i === 3 ? { pendingTasks: undefined } : {})));
    expect(keptIds(unknown, plan(unknown, 1))).toEqual(["/c03", "/c04"]);
    const finished = thread(line(4));
    expect(keptIds(finished, plan(finished, 1))).toEqual(["/c04"]);
  });

  it("keeps a delta channel's writes back to the checkpoint that holds its snapshot, and no further", () => {
    // c03 snapshotted `messages` (no counter); every later one rebuilds it from the writes after.
    const history = thread(
      line(7, (i) => ({ deltaChannels: i === 2 ? [] : ["messages"], source: i === 5 ? "input" : "loop" })),
    );
    expect(keptIds(history, plan(history, 1))).toEqual(["/c03", "/c04", "/c05", "/c06", "/c07"]);
    // Never snapshotted: every checkpoint back to the first.
    const unsnapshotted = thread(line(5, () => ({ deltaChannels: ["messages"] })));
    expect(plan(unsnapshotted, 1).remove).toEqual([]);
  });

  it("keeps the parent of a delta checkpoint's run input, and that parent's own chain (the repair its run began from)", () => {
    // c04 is the run's input, and holds the snapshot; c02 holds the one before.
    const history = thread(
      line(6, (i) => ({ deltaChannels: i === 1 || i === 3 ? [] : ["messages"], source: i === 3 ? "input" : "loop" })),
    );
    expect(keptIds(history, plan(history, 1))).toEqual(["/c02", "/c03", "/c04", "/c05", "/c06"]);
  });

  it("keeps the parent of a format-3 checkpoint whose pending sends are the parent's writes", () => {
    const sent = thread(line(3, (i) => ({ format: 3, sends: i === 1 })));
    expect(keptIds(sent, plan(sent, 1))).toEqual(["/c02", "/c03"]);
    const none = thread(line(3, () => ({ format: 3 })));
    expect(keptIds(none, plan(none, 1))).toEqual(["/c03"]);
  });

  it("keeps a task's subgraph namespace with the parent checkpoint it ran under, and removes it whole with it", () => {
    const root = line(4);
    const task = (owner: string, n: number) =>
      line(n).map((h) => ({
        ...h,
        checkpointNs: `agent:${owner}`,
        checkpointId: `${owner}-${h.checkpointId}`,
        parentId: h.parentId && `${owner}-${h.parentId}`,
        parents: { "": owner },
      }));
    const history = thread([...root, ...task("c02", 3), ...task("c04", 3)]);
    const result = plan(history, 1);
    expect(keptIds(history, result)).toEqual(["/c04", "agent:c04/c04-c03"]);
    expect(result.namespaces).toEqual(["agent:c02"]);
    // Kept by keepLast, its parent keeps the first namespace alive too, and keepLast counts in each namespace.
    expect(keptIds(history, plan(history, 3))).toEqual(
      [
        "/c02",
        "/c03",
        "/c04",
        ...["c01", "c02", "c03"].flatMap((c) => [`agent:c02/c02-${c}`, `agent:c04/c04-${c}`]),
      ].sort(),
    );
  });

  it("keeps a checkpointer: true subgraph's newest and the parent checkpoint it names", () => {
    const root = line(5);
    const persistent = line(3).map((h) => ({ ...h, checkpointNs: "agent", parents: { "": "c03" } }));
    const history = thread([...root, ...persistent]);
    const result = plan(history, 1);
    expect(keptIds(history, result)).toEqual(["/c03", "/c05", "agent/c03"]);
    const relinks = result.relink.map((r) => `${r.head.checkpointNs}/${r.head.checkpointId} -> ${r.parentId}`);
    expect(relinks.sort()).toEqual(["/c03 -> null", "/c05 -> c03", "agent/c03 -> null"]);
  });

  it("relinks a kept checkpoint to its nearest kept ancestor, across a fork", () => {
    // c01 ← c02 ← c03 ← c04, and a fork c02 ← c05 ← c06 made later (a Regenerate from c02).
    const fork = [head("c05", "c02"), head("c06", "c05", { pendingTasks: false })];
    const history = thread([...line(4), ...fork]);
    const relinks = (result: ThreadPlan) => result.relink.map((r) => `${r.head.checkpointId} -> ${r.parentId}`).sort();
    expect(keptIds(history, plan(history, 1))).toEqual(["/c06"]);
    const three = plan(history, 3);
    expect(keptIds(history, three)).toEqual(["/c04", "/c05", "/c06"]);
    expect(relinks(three)).toEqual(["c04 -> null", "c05 -> null"]);
    // With c01 kept (a persistent subgraph names it), both branches name it.
    const named = thread([...history.checkpoints, head("s1", null, { checkpointNs: "agent", parents: { "": "c01" } })]);
    expect(relinks(plan(named, 3))).toEqual(["c04 -> c01", "c05 -> c01"]);
  });

  it("removes a value only when no kept checkpoint of its namespace refers to its version", () => {
    const versions = ["1", "1", "2", "3"];
    const history = thread(
      line(4, (i) => ({ channelVersions: { messages: versions[i]!, "branch:to:agent": String(i + 1) } })),
      [
        ...["1", "2", "3"].map((version) => ({ checkpointNs: "", channel: "messages", version, bytes: 10 })),
        ...["1", "2", "3", "4"].map((version) => ({ checkpointNs: "", channel: "branch:to:agent", version, bytes: 1 })),
        { checkpointNs: "other", channel: "messages", version: "3", bytes: 10 },
      ],
    );
    const removed = plan(history, 2).blobs.map((b) => `${b.checkpointNs}/${b.channel}@${b.version}`);
    expect(removed.sort()).toEqual(["/branch:to:agent@1", "/branch:to:agent@2", "/messages@1", "other/messages@3"]);
  });
});
