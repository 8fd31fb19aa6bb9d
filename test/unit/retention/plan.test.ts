// Which checkpoints retention keeps, on histories built by hand (each rule shown failing its case when dropped) and
// on random ones (fast-check): the promise, the closure under what reads need, the relinks and the values removed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkpointTime } from "../../../src/retention/checkpoint-time.js";
import type { CheckpointHead, StoredBlob, ThreadHistory, ThreadPlan } from "../../../src/retention/history.js";
import { planRetention } from "../../../src/retention/plan.js";

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

  it("ends its walks on a store whose parent links loop", () => {
    const looped = thread([
      head("c01", "c03", { deltaChannels: ["messages"] }),
      ...line(3, () => ({ deltaChannels: ["messages"] })).slice(1),
    ]);
    expect(keptIds(looped, plan(looped, 1))).toEqual(["/c01", "/c02", "/c03"]);
    const self = thread([head("c01", null), head("c02", "c02", { pendingTasks: true })]);
    expect(plan(self, 1).relink).toEqual([]);
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

/** A random thread: a root history with forks, delta channels and stops, subgraph namespaces, values by version. */
const randomThread = fc
  .record({
    size: fc.integer({ min: 1, max: 25 }),
    delta: fc.boolean(),
    seed: fc.array(
      fc.record({
        fork: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        source: fc.constantFrom("input", "loop", "loop", "loop", "update"),
        snapshot: fc.boolean(),
        legacy: fc.boolean(),
        sends: fc.boolean(),
        version: fc.integer({ min: 1, max: 5 }),
      }),
      { minLength: 25, maxLength: 25 },
    ),
    pending: fc.constantFrom(true, false, undefined),
    subgraphs: fc.array(
      fc.record({ task: fc.boolean(), size: fc.integer({ min: 1, max: 5 }), owner: fc.integer({ min: 0, max: 30 }) }),
      { maxLength: 3 },
    ),
  })
  .map(({ size, delta, seed, pending, subgraphs }): ThreadHistory => {
    const ids = Array.from({ length: size }, (_, i) => idAt(60 - 2 * i, i));
    const root = ids.map((id, i) => {
      const s = seed[i]!;
      const parent = i === 0 ? null : ids[s.fork < 0.85 ? i - 1 : Math.floor(s.fork * i)]!;
      return head(id, parent, {
        source: s.source,
        deltaChannels: delta && !s.snapshot ? ["messages"] : [],
        format: s.legacy ? 3 : 4,
        sends: s.sends,
        pendingTasks: i === size - 1 ? pending : undefined,
        channelVersions: { messages: String(s.version) },
      });
    });
    const namespaces = subgraphs.flatMap((sub, n) => {
      const ns = sub.task ? `agent:task-${n}` : `agent${n}`;
      // An owner past the root's last checkpoint stands for one that is not stored.
      const owner = sub.owner < size ? ids[sub.owner]! : "missing";
      return Array.from({ length: sub.size }, (_, i) =>
        head(`${ns}-${i}`, i === 0 ? null : `${ns}-${i - 1}`, { checkpointNs: ns, parents: { "": owner } }),
      );
    });
    const blobs = ["1", "2", "3", "4", "5", "6"].map((version) => ({
      checkpointNs: "",
      channel: "messages",
      version,
      bytes: 1,
    }));
    return { threadId: "t", checkpoints: [...root, ...namespaces], blobs };
  });

const randomPolicy = fc.record({
  keepLast: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  olderThan: fc.option(
    fc.integer({ min: 0, max: 70 }).map((days) => days * DAY),
    { nil: undefined },
  ),
});

describe("planRetention on random threads", () => {
  it("keeps what it promises and what reads of it need, relinks past what goes, and removes only the rest", () => {
    fc.assert(
      fc.property(randomThread, randomPolicy, (history, policy) => {
        const result = planRetention(history, policy, NOW);
        const removed = new Set(result.remove);
        const kept = new Set(history.checkpoints.filter((h) => !removed.has(h)));
        expect(kept.size + removed.size).toBe(history.checkpoints.length);
        expect(result.kept).toBe(kept.size);
        const byNs = new Map<string, CheckpointHead[]>();
        for (const h of history.checkpoints) byNs.set(h.checkpointNs, [...(byNs.get(h.checkpointNs) ?? []), h]);
        const find = (ns: string, id: string | null) => byNs.get(ns)?.find((h) => h.checkpointId === id);
        const parent = (h: CheckpointHead) => find(h.checkpointNs, h.parentId);

        for (const [ns, heads] of byNs) {
          const newestFirst = [...heads].sort((a, b) => (a.checkpointId < b.checkpointId ? 1 : -1));
          const owner = ns.includes(":") ? find("", newestFirst[0]!.parents[""] ?? null) : undefined;
          // A namespace lives with its owner; the root and checkpointer: true subgraphs always.
          const alive = owner === undefined || kept.has(owner);
          expect(kept.has(newestFirst[0]!)).toBe(alive);
          if (!alive) {
            expect(heads.every((h) => removed.has(h))).toBe(true);
            expect(result.namespaces).toContain(ns);
            continue;
          }
          if (owner !== undefined) {
            // A task's namespace never keeps the checkpoint it belongs to: without it, that one is kept alike.
            const without = { ...history, checkpoints: history.checkpoints.filter((h) => h.checkpointNs !== ns) };
            expect(planRetention(without, policy, NOW).remove).not.toContain(owner);
          }
          newestFirst.forEach((h, rank) => {
            const made = checkpointTime(h.checkpointId)!;
            if (policy.keepLast !== undefined && rank < policy.keepLast) expect(kept.has(h)).toBe(true);
            if (policy.olderThan !== undefined && NOW - made < policy.olderThan) expect(kept.has(h)).toBe(true);
          });
          const newest = newestFirst[0]!;
          if (newest.source === "loop" && newest.pendingTasks !== false && parent(newest))
            expect(kept.has(parent(newest)!)).toBe(true);
          let at = newest;
          for (let n = 0; n < 8 && at.source === "input" && parent(at); n++)
            expect(kept.has((at = parent(at)!))).toBe(true);
        }
        for (const h of kept) {
          for (let at = parent(h); at && h.deltaChannels.length > 0; at = parent(at)) {
            expect(kept.has(at)).toBe(true);
            if (at.deltaChannels.length === 0) break;
          }
          if (h.format! < 4 && parent(h)?.sends) expect(kept.has(parent(h)!)).toBe(true);
          const named = find("", h.parents[""] ?? null);
          if (named) expect(kept.has(named)).toBe(true);
        }
        // Every kept checkpoint names a kept parent, its nearest kept ancestor, or none.
        const relinks = new Map(result.relink.map((r) => [r.head, r.parentId]));
        for (const h of kept) {
          const stored = parent(h);
          if (stored === undefined || kept.has(stored)) {
            expect(relinks.has(h)).toBe(false);
            continue;
          }
          let ancestor: CheckpointHead | undefined = stored;
          while (ancestor && !kept.has(ancestor)) ancestor = parent(ancestor);
          expect(relinks.get(h)).toBe(ancestor?.checkpointId ?? null);
        }
        expect(result.relink).toHaveLength(relinks.size);
        const referenced = new Set([...kept].map((h) => h.channelVersions?.messages).filter((v) => v !== undefined));
        expect(result.blobs.map((b) => b.version).sort()).toEqual(
          history.blobs.map((b) => b.version).filter((v) => !referenced.has(v)),
        );
      }),
      RUNS,
    );
  });
});
