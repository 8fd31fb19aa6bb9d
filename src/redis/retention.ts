// IORedisSaver's keys for `prune`: a batch is read in three pipelines (one per node on a Cluster), and each thread
// is changed in one MULTI, its keys sharing one slot. Layout: docs/redis.md.
import type { Checkpoint, CheckpointMetadata, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { ChainableCommander, Cluster, Redis } from "ioredis";
import { hasPendingTasks } from "../checkpointer/thread-state.js";
import type { CheckpointHead, StoredBlob, ThreadPlan } from "../retention/history.js";
import type { RetentionStore } from "../retention/store.js";
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

/** What the MULTI needs of a head the plan names: its stored frame, and its writes' fields. */
interface Stored {
  frame: Buffer;
  writeFields: string[];
}

/** One namespace of one thread as read. */
interface NamespaceRead {
  threadId: string;
  checkpointNs: string;
  keys: NamespaceKeys;
  blobFields: string[];
  frames: [string, Buffer][];
  writeFields: string[];
}

/** @internal */
export function redisRetention(
  client: Redis | Cluster,
  keys: KeyLayout,
  serde: SerializerProtocol,
  description: string,
): RetentionStore {
  const stored = new WeakMap<CheckpointHead, Stored>();

  async function namespaces(threadIds: readonly string[]): Promise<NamespaceRead[]> {
    const members = await Promise.all(threadIds.map((id) => client.smembers(keys.namespaces(id))));
    const pairs = threadIds.flatMap((threadId, i) =>
      members[i]!.map((ns) => ({ threadId, checkpointNs: decodeId(ns), keys: keys.namespace(threadId, decodeId(ns)) })),
    );
    // Issued in this order on each thread's node: a value stored with a checkpoint after this read is not listed.
    return Promise.all(
      pairs.map(async (pair) => {
        const [blobFields, frames, writeFields] = await Promise.all([
          client.hkeys(pair.keys.blobs),
          client.hgetallBuffer(pair.keys.checkpoint),
          client.zrange(pair.keys.writesIndex, "0", "-1"),
        ]);
        return { ...pair, blobFields, frames: Object.entries(frames), writeFields };
      }),
    );
  }

  async function heads(read: NamespaceRead): Promise<CheckpointHead[]> {
    const writesOf = new Map<string, string[]>();
    for (const field of read.writeFields) {
      const id = decodeId(field.slice(0, field.indexOf("|")));
      writesOf.set(id, [...(writesOf.get(id) ?? []), field]);
    }
    const writeSizes = new Map<string, number>();
    await Promise.all(read.writeFields.map(async (f) => writeSizes.set(f, await client.hstrlen(read.keys.writes, f))));
    const result = await Promise.all(
      read.frames.map(async ([field, frame]): Promise<CheckpointHead> => {
        const { header, parts } = decodeFrame<CheckpointHeader>(frame);
        const [checkpoint, metadata] = (await Promise.all([
          serde.loadsTyped(header.checkpointType, parts[0]!),
          serde.loadsTyped(header.metadataType, parts[1]!),
        ])) as [Checkpoint, CheckpointMetadata];
        const checkpointId = decodeId(field);
        const writeFields = writesOf.get(checkpointId) ?? [];
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
          writes: writeFields.length,
          writeBytes: writeFields.reduce((sum, f) => sum + (writeSizes.get(f) ?? 0), 0),
          channelVersions: checkpoint.channel_versions ?? {},
        };
        stored.set(head, { frame, writeFields });
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

  async function blobs(read: NamespaceRead): Promise<StoredBlob[]> {
    return Promise.all(
      read.blobFields.map(async (field) => {
        const [channel, version] = field.split("|").map(decodeId) as [string, string];
        return {
          checkpointNs: read.checkpointNs,
          channel,
          version,
          bytes: await client.hstrlen(read.keys.blobs, field),
        };
      }),
    );
  }

  function removeFrom(multi: ChainableCommander, plan: ThreadPlan): void {
    for (const { head, parentId } of plan.relink) {
      const { header, parts } = decodeFrame<CheckpointHeader>(stored.get(head)!.frame);
      const frame = encodeFrame({ ...header, parent: parentId }, parts);
      multi.hset(keys.namespace(plan.threadId, head.checkpointNs).checkpoint, encodeId(head.checkpointId), frame);
    }
    for (const head of plan.remove) {
      const ns = keys.namespace(plan.threadId, head.checkpointNs);
      const id = encodeId(head.checkpointId);
      multi.zrem(ns.checkpoints, id).hdel(ns.checkpoint, id);
      const { writeFields } = stored.get(head)!;
      if (writeFields.length > 0) multi.hdel(ns.writes, ...writeFields).zrem(ns.writesIndex, ...writeFields);
    }
    for (const blob of plan.blobs)
      multi.hdel(keys.namespace(plan.threadId, blob.checkpointNs).blobs, blobField(blob.channel, blob.version));
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
        for (let start = 0; start < all.length; start += 500) yield all.slice(start, start + 500);
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
      const [headLists, blobLists] = await Promise.all([Promise.all(reads.map(heads)), Promise.all(reads.map(blobs))]);
      return groupByThread(
        threadIds,
        reads.flatMap((read, i) => headLists[i]!.map((head) => ({ threadId: read.threadId, head }))),
        reads.flatMap((read, i) => blobLists[i]!.map((blob) => ({ threadId: read.threadId, blob }))),
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
