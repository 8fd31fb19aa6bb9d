// IORedisSaver's keys for `prune`: a batch of threads is read in a few round trips (one pipeline per node on a
// Cluster), and each thread is changed in one MULTI, its keys sharing one slot. Layout: docs/redis.md.
import type { Checkpoint, CheckpointMetadata, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { ChainableCommander, Cluster, Redis } from "ioredis";
import { hasPendingTasks } from "../checkpointer/thread-state.js";
import type { CheckpointHead, StoredBlob, ThreadPlan } from "../retention/history.js";
import { PAGE, type RetentionStore } from "../retention/store.js";
import { deltaChannelsOf, groupByThread, parentsOf } from "../retention/stores/rows.js";
import { decodeFrame, encodeFrame } from "./frame.js";
import { blobField, decodeId, encodeId, type KeyLayout, type NamespaceKeys } from "./keys.js";
import { scanThreads } from "./thread-scan.js";
import { execAtomically } from "./transaction.js";

interface CheckpointHeader {
  parent: string | null;
  checkpointType: string;
  metadataType: string;
}

/** The channels `hasPendingTasks` reads off the newest checkpoint. */
const TRIGGERS = /^(branch:to:|join:|__start__$|__pregel_tasks$)/;

/**
 * Each hash's fields with their sizes, `[field, size, …]` per key, in one call: a command per field cost the client
 * more than the rest of the read (a promise and its garbage each). Read-only, on keys of one slot.
 */
const FIELD_SIZES = `local out = {}
for i, key in ipairs(KEYS) do
  local sizes = {}
  for _, field in ipairs(redis.call('HKEYS', key)) do
    sizes[#sizes + 1] = field
    sizes[#sizes + 1] = redis.call('HSTRLEN', key, field)
  end
  out[i] = sizes
end
return out`;

/** A server that refuses scripts (an ACL without `@scripting`, a managed service) gets HKEYS and HSTRLEN instead. */
const SCRIPTS_REFUSED = /NOPERM|unknown command|not allowed|disabled|NOSCRIPT/i;

/** Fields and their sizes, in stored order. */
type Sized = [field: string, size: number][];

/** What the MULTI needs of a head the plan names: its field, its stored frame, and its writes' fields. */
interface Stored {
  field: string;
  frame: Buffer;
  writeFields: string[];
}

/** One namespace of one thread as read. */
interface NamespaceRead {
  threadId: string;
  checkpointNs: string;
  keys: NamespaceKeys;
  writes: Sized;
  blobs: Sized;
  frames: [string, Buffer][];
}

const pairs = (flat: (string | number)[]): Sized => {
  const sized: Sized = [];
  for (let i = 0; i < flat.length; i += 2) sized.push([String(flat[i]), Number(flat[i + 1])]);
  return sized;
};

/** @internal */
export function redisRetention(
  client: Redis | Cluster,
  keys: KeyLayout,
  serde: SerializerProtocol,
  description: string,
): RetentionStore {
  const stored = new WeakMap<CheckpointHead, Stored>();
  const blobFields = new WeakMap<StoredBlob, string>();
  /** Whether the server runs scripts: asked once, before the first read. */
  let scripts: Promise<boolean> | undefined;
  const runsScripts = () =>
    client.eval("return 1", 0).then(
      () => true,
      (error: Error) => (SCRIPTS_REFUSED.test(error.message) ? false : Promise.reject(error)),
    );

  /** The writes' and values' fields and sizes; the commands are sent before the caller's next ones. */
  async function fieldSizes({ writes, blobs }: NamespaceKeys, scripted: boolean): Promise<[Sized, Sized]> {
    if (scripted) {
      const [w, b] = (await client.eval(FIELD_SIZES, 2, writes, blobs)) as [(string | number)[], (string | number)[]];
      return [pairs(w), pairs(b)];
    }
    const fields = await Promise.all([client.hkeys(writes), client.hkeys(blobs)]);
    const pipeline = client.pipeline();
    fields.forEach((names, i) => names.forEach((f) => pipeline.hstrlen(i === 0 ? writes : blobs, f)));
    const lengths = (await pipeline.exec())!.map(([error, length]) => {
      if (error) throw error;
      return length as number;
    });
    const [w, b] = fields;
    return [w!.map((f, i) => [f, lengths[i]!]), b!.map((f, i) => [f, lengths[w!.length + i]!])];
  }

  async function namespaces(threadIds: readonly string[]): Promise<NamespaceRead[]> {
    const scripted = await (scripts ??= runsScripts());
    const members = await Promise.all(threadIds.map((id) => client.smembers(keys.namespaces(id))));
    const found = threadIds.flatMap((threadId, i) =>
      members[i]!.map((ns) => ({ threadId, checkpointNs: decodeId(ns), keys: keys.namespace(threadId, decodeId(ns)) })),
    );
    return Promise.all(
      found.map(async (pair) => {
        // In this order on the thread's node: a value stored with a checkpoint after this read is not listed.
        const sizes = fieldSizes(pair.keys, scripted);
        const frames = client.hgetallBuffer(pair.keys.checkpoint);
        const [[writes, blobs], checkpoints] = await Promise.all([sizes, frames]);
        return { ...pair, writes, blobs, frames: Object.entries(checkpoints) };
      }),
    );
  }

  /** JSON as plain values: retention reads ids, versions and a few metadata fields, never a revived object. */
  const load = (type: string, bytes: Buffer): unknown =>
    type === "json" ? JSON.parse(bytes.toString("utf8")) : serde.loadsTyped(type, bytes);

  async function heads(read: NamespaceRead): Promise<CheckpointHead[]> {
    const writesOf = new Map<string, Sized>();
    for (const write of read.writes) {
      const id = decodeId(write[0].slice(0, write[0].indexOf("|")));
      const list = writesOf.get(id);
      if (list) list.push(write);
      else writesOf.set(id, [write]);
    }
    const result = await Promise.all(
      read.frames.map(async ([field, frame]): Promise<CheckpointHead> => {
        const { header, parts } = decodeFrame<CheckpointHeader>(frame);
        const [checkpoint, metadata] = (await Promise.all([
          load(header.checkpointType, parts[0]!),
          load(header.metadataType, parts[1]!),
        ])) as [Checkpoint, CheckpointMetadata];
        const checkpointId = decodeId(field);
        const writes = writesOf.get(checkpointId) ?? [];
        const head: CheckpointHead = {
          checkpointNs: read.checkpointNs,
          checkpointId,
          parentId: header.parent,
          source: metadata?.source,
          parents: parentsOf(metadata?.parents),
          deltaChannels: deltaChannelsOf(metadata?.counters_since_delta_snapshot),
          format: checkpoint.v,
          sends: undefined,
          bytes: frame.byteLength,
          writes: writes.length,
          writeBytes: writes.reduce((sum, [, size]) => sum + size, 0),
          channelVersions: checkpoint.channel_versions ?? {},
        };
        stored.set(head, { field, frame, writeFields: writes.map(([f]) => f) });
        return head;
      }),
    );
    const newest = result.reduce<CheckpointHead | undefined>(
      (max, h) => (max === undefined || h.checkpointId > max.checkpointId ? h : max),
      undefined,
    );
    if (newest !== undefined) newest.pendingTasks = await pending(read.keys, newest);
    return result;
  }

  /** Only the trigger channels' values are read, as `hasPendingTasks` would read them off the tuple. */
  async function pending(nsKeys: NamespaceKeys, head: CheckpointHead): Promise<boolean> {
    const channels = Object.entries(head.channelVersions ?? {}).filter(([channel]) => TRIGGERS.test(channel));
    if (channels.length === 0) return false;
    const frames = await client.hmgetBuffer(nsKeys.blobs, ...channels.map(([c, v]) => blobField(c, v)));
    const values: Record<string, unknown> = {};
    await Promise.all(
      frames.map(async (frame, i) => {
        if (frame === null) return;
        const { header, parts } = decodeFrame<{ type: string }>(frame);
        if (header.type !== "empty") values[channels[i]![0]] = await serde.loadsTyped(header.type, parts[0]!);
      }),
    );
    return hasPendingTasks({ channel_values: values } as Checkpoint);
  }

  const blobsOf = (read: NamespaceRead): StoredBlob[] =>
    read.blobs.map(([field, bytes]) => {
      const [channel, version] = field.split("|").map(decodeId) as [string, string];
      const blob = { checkpointNs: read.checkpointNs, channel, version, bytes };
      blobFields.set(blob, field);
      return blob;
    });

  /** One command per key: a command per field made the MULTI's garbage the cost of the prune. */
  function removeFrom(multi: ChainableCommander, plan: ThreadPlan): void {
    for (const { head, parentId } of plan.relink) {
      const { field, frame } = stored.get(head)!;
      const { header, parts } = decodeFrame<CheckpointHeader>(frame);
      multi.hset(
        keys.namespace(plan.threadId, head.checkpointNs).checkpoint,
        field,
        encodeFrame({ ...header, parent: parentId }, parts),
      );
    }
    const byNamespace = new Map<string, { ids: string[]; writes: string[]; blobs: string[] }>();
    const of = (ns: string) => {
      let fields = byNamespace.get(ns);
      if (fields === undefined) byNamespace.set(ns, (fields = { ids: [], writes: [], blobs: [] }));
      return fields;
    };
    for (const head of plan.remove) {
      const { field, writeFields } = stored.get(head)!;
      const fields = of(head.checkpointNs);
      fields.ids.push(field);
      fields.writes.push(...writeFields);
    }
    for (const blob of plan.blobs) of(blob.checkpointNs).blobs.push(blobFields.get(blob)!);
    for (const [checkpointNs, { ids, writes, blobs }] of byNamespace) {
      const ns = keys.namespace(plan.threadId, checkpointNs);
      if (ids.length > 0) multi.zrem(ns.checkpoints, ...ids).hdel(ns.checkpoint, ...ids);
      if (writes.length > 0) multi.hdel(ns.writes, ...writes).zrem(ns.writesIndex, ...writes);
      if (blobs.length > 0) multi.hdel(ns.blobs, ...blobs);
    }
    if (plan.namespaces.length > 0) multi.srem(keys.namespaces(plan.threadId), ...plan.namespaces.map(encodeId));
  }

  return {
    description,
    threads({ threadId, after }) {
      const ids = (async () => {
        if (threadId !== undefined)
          return (await client.exists(keys.namespaces(threadId))) && !(after !== undefined && threadId <= after)
            ? [threadId]
            : [];
        // SCAN has no order and may repeat a key: every id is collected and sorted first (ids only).
        const all = new Set<string>();
        for await (const page of scanThreads(client, keys)) for (const id of page) all.add(id);
        return [...all].filter((id) => after === undefined || id > after).sort();
      })();
      async function* pages() {
        const all = await ids;
        for (let start = 0; start < all.length; start += PAGE) yield all.slice(start, start + PAGE);
      }
      return {
        pages: pages(),
        total: ids.then(
          (all) => all.length,
          () => undefined,
        ),
      };
    },
    async read(threadIds) {
      const reads = await namespaces(threadIds);
      const headLists = await Promise.all(reads.map(heads));
      return groupByThread(
        threadIds,
        reads.flatMap((read, i) => headLists[i]!.map((head) => ({ threadId: read.threadId, head }))),
        reads.flatMap((read) => blobsOf(read).map((blob) => ({ threadId: read.threadId, blob }))),
      );
    },
    async apply(plans) {
      await Promise.all(
        plans.map((plan) => {
          const multi = client.multi();
          removeFrom(multi, plan);
          return execAtomically(multi);
        }),
      );
    },
  };
}
