import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  TASKS,
  WRITES_IDX_MAP,
  copyCheckpoint,
  maxChannelVersion,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { Redis, type Cluster, type ChainableCommander } from "ioredis";
import { sortWrites } from "../langgraph-features.js";
import { assertOption } from "../options/assert-option.js";
import { FastJsonPlusSerializer } from "../serde/fast-jsonplus-serializer.js";
import { resilientRedisOptions } from "./connection-options.js";
import { decodeFrame, encodeFrame } from "./frame.js";
import { KeyLayout, blobField, decodeId, encodeId, writeField, writeFieldRange, type NamespaceKeys } from "./keys.js";
import { explainOutage } from "./outage-error.js";
import { explainErrorsOf } from "../explain-errors.js";
import { scanThreads } from "./thread-scan.js";
import { execAtomically } from "./transaction.js";
import { redisRetention } from "./retention.js";
import { prune, type PruneOptions, type PruneReport } from "../retention/prune.js";
import { RETENTION_STORE, type RetentionStore } from "../retention/store.js";

/** What IORedisSaver connects through: an ioredis client or cluster, or a `redis://` URL. */
export type IORedisConnection = Redis | Cluster | string;

/** Options of {@link IORedisSaver}. */
export interface IORedisSaverOptions {
  /** Prefix of every key; no `{` or `}`, which would change the Cluster hash tag. @default "langgraph" */
  keyPrefix?: string;
  /** Expire a thread's keys this many seconds (a whole number) after its last write. @default undefined (never) */
  ttlSeconds?: number;
  /** Serializer; the default writes the stock `JsonPlusSerializer` format. @default new FastJsonPlusSerializer() */
  serde?: SerializerProtocol;
  /**
   * Replicas that must hold each write before it is reported stored (Redis's `WAIT`, up to 1 s), so a failover loses
   * nothing (docs/redis.md). When none answers in time, the write still counts as stored. A whole number.
   * @default 0
   */
  waitForReplicas?: number;
}

interface CheckpointHeader {
  parent: string | null;
  checkpointType: string;
  metadataType: string;
}
interface BlobHeader {
  type: string;
}
interface WriteHeader {
  taskId: string;
  channel: string;
  type: string;
  taskPath: string;
  idx: number;
}

const EMPTY = new Uint8Array(0);
const WAIT_TIMEOUT_MS = 1000;
const LIST_PAGE = 100;

/** The other savers' error, in their words. */
function missingField(action: string, field: "thread_id" | "checkpoint_id"): Error {
  return new Error(
    `Failed to ${action}. The passed RunnableConfig is missing a required "${field}" field in its "configurable" property.`,
  );
}

function isClient(value: unknown): value is Redis | Cluster {
  const c = value as Partial<Redis> | null;
  return typeof c === "object" && c !== null && typeof c.multi === "function" && typeof c.hgetBuffer === "function";
}

/**
 * A LangGraph checkpointer on plain Redis 6 or newer (no RedisJSON or RediSearch), through ioredis: standalone,
 * Cluster, ElastiCache, Memorystore. Each write is one MULTI; a thread's keys share one hash tag; no KEYS or SCAN on
 * a graph's path. Key layout and guarantees: docs/redis.md.
 *
 * @example
 * ```ts
 * const checkpointer = new IORedisSaver("redis://127.0.0.1:6379", { ttlSeconds: 7 * 24 * 3600 });
 * const graph = builder.compile({ checkpointer });
 * // ...
 * await checkpointer.close(); // closes the connection the saver opened from the URL
 * ```
 */
export class IORedisSaver extends BaseCheckpointSaver {
  readonly client: Redis | Cluster;
  private readonly ownsClient: boolean;
  private readonly keys: KeyLayout;
  private readonly ttlSeconds: number | undefined;
  private readonly waitForReplicas: number;

  constructor(connection: IORedisConnection, options: IORedisSaverOptions = {}) {
    super(options.serde ?? new FastJsonPlusSerializer());
    // Before connecting, so bad options never leave a connection open.
    const { ttlSeconds, waitForReplicas = 0 } = options;
    if (ttlSeconds !== undefined) {
      const valid = Number.isInteger(ttlSeconds) && ttlSeconds > 0;
      assertOption("ttlSeconds", ttlSeconds, valid, "must be a positive whole number of seconds");
    }
    const whole = Number.isInteger(waitForReplicas) && waitForReplicas >= 0;
    assertOption("waitForReplicas", waitForReplicas, whole, "must be a whole number of replicas");
    this.ttlSeconds = ttlSeconds;
    this.waitForReplicas = waitForReplicas;
    this.keys = new KeyLayout(options.keyPrefix ?? "langgraph");
    if (typeof connection === "string") {
      this.client = new Redis(connection, resilientRedisOptions());
      // Each call reports its own failure; unheard, ioredis would print every reconnection attempt.
      this.client.on("error", () => {});
      this.ownsClient = true;
    } else if (isClient(connection)) {
      this.client = connection;
      this.ownsClient = false;
    } else {
      throw new TypeError("IORedisSaver needs an ioredis Redis or Cluster instance, or a redis:// URL.");
    }
  }

  /** Closes the connection the saver opened from a URL; a client you passed in stays yours. */
  async close(): Promise<void> {
    if (this.ownsClient) await this.client.quit();
  }

  /** The next whole number plus a random fraction, as the Python savers do, so forks never overwrite values. */
  override getNextVersion(current: number | undefined): number {
    return Math.floor(Number(current ?? 0)) + 1 + Math.random();
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId: string | undefined = config.configurable?.thread_id;
    if (threadId === undefined) return undefined;
    const checkpointNs: string = config.configurable?.checkpoint_ns ?? "";
    const keys = this.keys.namespace(threadId, checkpointNs);
    let checkpointId: string | undefined = config.configurable?.checkpoint_id;
    if (!checkpointId) {
      const [latest] = await this.client.zrevrangebylex(keys.checkpoints, "+", "-", "LIMIT", 0, 1);
      if (latest === undefined) return undefined;
      checkpointId = decodeId(latest);
    }
    // Read alongside the checkpoint: one round trip fewer.
    const [stored, pendingWrites] = await Promise.all([
      this.client.hgetBuffer(keys.checkpoint, encodeId(checkpointId)),
      this.readWrites(keys, checkpointId),
    ]);
    if (!stored) return undefined;
    return this.loadTuple(threadId, checkpointNs, checkpointId, keys, stored, () => Promise.resolve(pendingWrites));
  }

  override async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    let remaining = options.limit ?? Infinity;
    const threadId: string | undefined = config.configurable?.thread_id;
    const threads = threadId !== undefined ? [threadId] : await this.allThreads();
    for (const thread of threads) {
      const namespaces =
        config.configurable?.checkpoint_ns !== undefined
          ? [config.configurable.checkpoint_ns as string]
          : await this.namespacesOf(thread);
      for (const checkpointNs of namespaces) {
        const keys = this.keys.namespace(thread, checkpointNs);
        for await (const checkpointId of this.checkpointIds(
          keys,
          config.configurable?.checkpoint_id,
          before?.configurable?.checkpoint_id,
        )) {
          if (remaining <= 0) return;
          const stored = await this.client.hgetBuffer(keys.checkpoint, encodeId(checkpointId));
          if (!stored) continue;
          const tuple = await this.loadTuple(
            thread,
            checkpointNs,
            checkpointId,
            keys,
            stored,
            () => this.readWrites(keys, checkpointId),
            filter,
          );
          if (tuple === undefined) continue;
          remaining -= 1;
          yield tuple;
        }
      }
    }
  }

  /** For `list()` without a `thread_id` (an admin's listing; a graph always names its thread). */
  private async allThreads(): Promise<string[]> {
    const ids = new Set<string>();
    for await (const page of scanThreads(this.client, this.keys)) for (const id of page) ids.add(id);
    return [...ids].sort();
  }

  /** Every (thread, namespace) pair, for the doctor: SCAN a page at a time on every master, one round trip per page. */
  async *threads(filter: { threadId?: string; checkpointNs?: string } = {}): AsyncGenerator<{
    threadId: string;
    checkpointNs: string;
  }> {
    const { threadId, checkpointNs } = filter;
    const pairs = async (thread: string) =>
      (await this.namespacesOf(thread))
        .filter((ns) => checkpointNs === undefined || ns === checkpointNs)
        .map((ns) => ({ threadId: thread, checkpointNs: ns }));
    if (threadId !== undefined) {
      yield* await pairs(threadId);
      return;
    }
    // SCAN may return a key twice during a rehash.
    const visited = new Set<string>();
    for await (const page of scanThreads(this.client, this.keys)) {
      const fresh = page.sort().filter((id) => !visited.has(id) && visited.add(id));
      for (const threadPairs of await Promise.all(fresh.map(pairs))) yield* threadPairs;
    }
  }

  private async namespacesOf(threadId: string): Promise<string[]> {
    return (await this.client.smembers(this.keys.namespaces(threadId))).map(decodeId).sort();
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId: string | undefined = config.configurable?.thread_id;
    if (threadId === undefined) throw missingField("put checkpoint", "thread_id");
    const checkpointNs: string = config.configurable?.checkpoint_ns ?? "";
    const parent: string | undefined = config.configurable?.checkpoint_id;
    const { channel_values: values, ...rest } = copyCheckpoint(checkpoint);
    // Serialize first: a value that cannot be serialized throws before anything is written.
    const [[checkpointType, checkpointBytes], [metadataType, metadataBytes], blobs] = await Promise.all([
      this.serde.dumpsTyped(rest),
      this.serde.dumpsTyped(metadata),
      Promise.all(
        Object.entries(newVersions).map(async ([channel, version]) => {
          const [type, bytes] = channel in values ? await this.serde.dumpsTyped(values[channel]) : ["empty", EMPTY];
          return [blobField(channel, version), encodeFrame<BlobHeader>({ type }, [bytes])] as const;
        }),
      ),
    ]);
    const keys = this.keys.namespace(threadId, checkpointNs);
    const header: CheckpointHeader = { parent: parent ?? null, checkpointType, metadataType };
    const multi = this.client.multi();
    multi.sadd(this.keys.namespaces(threadId), encodeId(checkpointNs));
    multi.zadd(keys.checkpoints, 0, encodeId(checkpoint.id));
    multi.hset(keys.checkpoint, encodeId(checkpoint.id), encodeFrame(header, [checkpointBytes, metadataBytes]));
    for (const [field, frame] of blobs) multi.hset(keys.blobs, field, frame);
    await this.refreshTtl(multi, threadId, checkpointNs);
    await execAtomically(multi);
    await this.replicated(keys.checkpoints);
    return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath = "",
  ): Promise<void> {
    const threadId: string | undefined = config.configurable?.thread_id;
    if (threadId === undefined) throw missingField("put writes", "thread_id");
    const checkpointId: string | undefined = config.configurable?.checkpoint_id;
    if (checkpointId === undefined) throw missingField("put writes", "checkpoint_id");
    const checkpointNs: string = config.configurable?.checkpoint_ns ?? "";
    const serialized = await Promise.all(
      writes.map(async ([channel, value], position) => {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        // Special channels (errors, interrupts, resumes) have fixed negative indices and replace earlier writes.
        const idx = WRITES_IDX_MAP[channel] ?? position;
        return { idx, frame: encodeFrame<WriteHeader>({ taskId, channel, type, taskPath, idx }, [bytes]) };
      }),
    );
    const keys = this.keys.namespace(threadId, checkpointNs);
    const multi = this.client.multi();
    multi.sadd(this.keys.namespaces(threadId), encodeId(checkpointNs));
    for (const { idx, frame } of serialized) {
      const field = writeField(checkpointId, taskId, idx);
      if (idx < 0) multi.hset(keys.writes, field, frame);
      else multi.hsetnx(keys.writes, field, frame);
      multi.zadd(keys.writesIndex, 0, field);
    }
    await this.refreshTtl(multi, threadId, checkpointNs);
    await execAtomically(multi);
    await this.replicated(keys.writes);
  }

  /** Waits for {@link IORedisSaverOptions.waitForReplicas} replicas on `key`'s master. */
  private async replicated(key: string): Promise<void> {
    if (this.waitForReplicas === 0) return;
    // WAIT has no key: a pipeline with one goes to its slot's master. Its failure only leaves the write unreplicated.
    await this.client
      .pipeline()
      .exists(key)
      .call("WAIT", this.waitForReplicas, WAIT_TIMEOUT_MS)
      .exec()
      .catch(() => undefined);
  }

  /**
   * Removes old checkpoints, keeping the newest `keepLast` of each thread namespace, those newer than `olderThan`, and
   * whatever a read of a kept one needs; each thread in one MULTI (docs/retention.md).
   */
  prune(options: PruneOptions): Promise<PruneReport> {
    return prune(this, options);
  }

  /** @internal */
  [RETENTION_STORE](): RetentionStore {
    return redisRetention(this.client, this.keys, this.serde, `Redis (prefix ${this.keys.prefix})`);
  }

  override async deleteThread(threadId: string): Promise<void> {
    const namespacesKey = this.keys.namespaces(threadId);
    const namespaces = new Set([...(await this.client.smembers(namespacesKey)).map(decodeId), ""]);
    const multi = this.client.multi();
    for (const ns of namespaces) multi.del(...Object.values(this.keys.namespace(threadId, ns)));
    multi.del(namespacesKey);
    await execAtomically(multi);
  }

  private async *checkpointIds(
    keys: NamespaceKeys,
    only: string | undefined,
    before: string | undefined,
  ): AsyncGenerator<string> {
    if (only) {
      if (!before || only < before) yield only;
      return;
    }
    let max = before ? `(${encodeId(before)}` : "+";
    for (;;) {
      const page = await this.client.zrevrangebylex(keys.checkpoints, max, "-", "LIMIT", 0, LIST_PAGE);
      for (const id of page) yield decodeId(id);
      if (page.length < LIST_PAGE) return;
      max = `(${page[page.length - 1]}`;
    }
  }

  private async loadTuple(
    threadId: string,
    checkpointNs: string,
    checkpointId: string,
    keys: NamespaceKeys,
    stored: Buffer,
    writes: () => Promise<CheckpointPendingWrite[]>,
    filter?: Record<string, unknown>,
  ): Promise<CheckpointTuple | undefined> {
    const { header, parts } = decodeFrame<CheckpointHeader>(stored);
    const metadata = (await this.serde.loadsTyped(header.metadataType, parts[1]!)) as CheckpointMetadata;
    if (
      filter &&
      !Object.entries(filter).every(([key, value]) => (metadata as Record<string, unknown>)[key] === value)
    ) {
      return undefined;
    }
    const checkpoint = (await this.serde.loadsTyped(header.checkpointType, parts[0]!)) as Checkpoint;
    const versions = Object.entries(checkpoint.channel_versions ?? {});
    const [blobs, pendingWrites] = await Promise.all([
      versions.length > 0
        ? this.client.hmgetBuffer(keys.blobs, ...versions.map(([ch, v]) => blobField(ch, v)))
        : Promise.resolve([]),
      writes(),
    ]);
    const channelValues: Record<string, unknown> = {};
    await Promise.all(
      blobs.map(async (blob, i) => {
        if (!blob) return;
        const {
          header: blobHeader,
          parts: [bytes],
        } = decodeFrame<BlobHeader>(blob);
        if (blobHeader.type !== "empty")
          channelValues[versions[i]![0]] = await this.serde.loadsTyped(blobHeader.type, bytes!);
      }),
    );
    checkpoint.channel_values = channelValues;
    if (checkpoint.v < 4 && header.parent) await this.migratePendingSends(checkpoint, keys, header.parent);
    const config = { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpointId } };
    return {
      config,
      checkpoint,
      metadata,
      pendingWrites,
      ...(header.parent
        ? { parentConfig: { configurable: { ...config.configurable, checkpoint_id: header.parent } } }
        : {}),
    };
  }

  /** In `writesSortKey` order, the order live execution applies them in. */
  private async readWrites(keys: NamespaceKeys, checkpointId: string): Promise<CheckpointPendingWrite[]> {
    const fields = await this.client.zrangebylex(keys.writesIndex, ...writeFieldRange(checkpointId));
    if (fields.length === 0) return [];
    const frames = (await this.client.hmgetBuffer(keys.writes, ...fields))
      .filter((w): w is Buffer => w !== null)
      .map((w) => decodeFrame<WriteHeader>(w));
    sortWrites(frames, ({ header }) => header);
    return Promise.all(
      frames.map(
        async ({ header, parts }) =>
          [
            header.taskId,
            header.channel,
            await this.serde.loadsTyped(header.type, parts[0]!),
          ] as CheckpointPendingWrite,
      ),
    );
  }

  /** Before format v4, pending `Send` packets were writes on the parent; newer LangGraph expects `__pregel_tasks`. */
  private async migratePendingSends(checkpoint: Checkpoint, keys: NamespaceKeys, parentId: string): Promise<void> {
    const sends = (await this.readWrites(keys, parentId))
      .filter(([, channel]) => channel === TASKS)
      .map(([, , value]) => value);
    checkpoint.channel_values[TASKS] = sends;
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] =
      versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }

  private async refreshTtl(multi: ChainableCommander, threadId: string, checkpointNs: string): Promise<void> {
    if (this.ttlSeconds === undefined) return;
    const namespacesKey = this.keys.namespaces(threadId);
    const namespaces = new Set([...(await this.client.smembers(namespacesKey)).map(decodeId), checkpointNs]);
    for (const ns of namespaces)
      for (const key of Object.values(this.keys.namespace(threadId, ns))) multi.expire(key, this.ttlSeconds);
    multi.expire(namespacesKey, this.ttlSeconds);
  }
}

explainErrorsOf(IORedisSaver, explainOutage);
