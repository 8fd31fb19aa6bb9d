// The official tables read in one text-format statement per call (docs/postgres.md). Shared with the drop-in, so it
// imports neither `pg` nor the Postgres saver at run time: the main entry loads without them.
import type { RunnableConfig } from "@langchain/core/runnables";
import type {
  CheckpointListOptions,
  CheckpointMetadata,
  CheckpointTuple,
  SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import type { QueryConfig } from "pg";
import type { ReadRow } from "./read-sql.js";
import { readSql } from "./read-sql.js";
import { groupRows, type StoredCheckpoint, type StoredValue } from "./stored-checkpoints.js";
import { textQuery } from "./text-rows.js";

/** node-postgres's `Pool#query` with a query config. */
export interface ReadPool {
  query(config: QueryConfig): Promise<{ rows: ReadRow[] }>;
}

/** Read at each call, so the drop-in's `serde` and the installed saver's filters and metadata loading are used. */
export interface ReadPathSaver {
  readonly serde: SerializerProtocol;
  _searchWhere(config?: RunnableConfig, filter?: Record<string, unknown>, before?: RunnableConfig): [string, unknown[]];
  _loadMetadata(metadata: Record<string, unknown>): Promise<CheckpointMetadata>;
}

/** The official saver's selections. */
const BY_ID = "WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3";
const LATEST = "WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT 1";

export interface NamespaceRef {
  threadId: string;
  checkpointNs: string;
}

/** One index probe apiece. */
const latestOfEach = (schema: string) => `unnest($1::text[], $2::text[]) as ref(thread, ns)
  cross join lateral (
    select * from "${schema}".checkpoints
    where thread_id = ref.thread and checkpoint_ns = ref.ns order by checkpoint_id desc limit 1
  ) as latest`;

const refKey = (threadId: string, checkpointNs: string) => JSON.stringify([threadId, checkpointNs]);

/** Before format 4, pending sends were not a channel: the official saver migrates them on read. */
const needsSendsMigration = (stored: StoredCheckpoint) => stored.checkpoint.v < 4 && stored.parentCheckpointId !== null;

/** @internal */
export class PostgresReadPath {
  /**
   * @param saver - its `serde`, `_searchWhere` and `_loadMetadata` are used
   * @param legacyGetTuple - the official `getTuple`, for checkpoints whose pending sends it migrates
   */
  constructor(
    private readonly pool: ReadPool,
    private readonly schema: string,
    private readonly saver: ReadPathSaver,
    private readonly legacyGetTuple: (config: RunnableConfig) => Promise<CheckpointTuple | undefined>,
  ) {}

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    const [stored] = checkpoint_id
      ? await this.readCheckpoints(BY_ID, [thread_id, checkpoint_ns, checkpoint_id])
      : await this.readCheckpoints(LATEST, [thread_id, checkpoint_ns]);
    if (stored === undefined) return undefined;
    if (needsSendsMigration(stored)) {
      const { checkpointId } = stored;
      return this.legacyGetTuple({ ...config, configurable: { ...config.configurable, checkpoint_id: checkpointId } });
    }
    return this.toTuple(stored, thread_id, checkpoint_ns);
  }

  /** In one statement: the doctor reads a page of threads at a time. */
  async latest(refs: readonly NamespaceRef[]): Promise<(CheckpointTuple | undefined)[]> {
    if (refs.length === 0) return [];
    const args = [refs.map((r) => r.threadId), refs.map((r) => r.checkpointNs)];
    const { rows } = await this.pool.query(textQuery(readSql(this.schema, "", latestOfEach(this.schema)), args));
    const found = new Map(groupRows(rows).map((stored) => [refKey(stored.threadId, stored.checkpointNs), stored]));
    return Promise.all(
      refs.map(({ threadId, checkpointNs }) => {
        const stored = found.get(refKey(threadId, checkpointNs));
        if (stored === undefined) return undefined;
        if (!needsSendsMigration(stored)) return this.toTuple(stored, threadId, checkpointNs);
        const configurable = { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: stored.checkpointId };
        return this.legacyGetTuple({ configurable });
      }),
    );
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { filter, before, limit } = options ?? {};
    const [where, args] = this.saver._searchWhere(config, filter, before);
    let selection = `${where} ORDER BY checkpoint_id DESC`;
    if (limit !== undefined) selection += ` LIMIT ${Number.parseInt(limit.toString(), 10)}`;
    for (const stored of await this.readCheckpoints(selection, args)) {
      const { threadId, checkpointNs, checkpointId } = stored;
      if (needsSendsMigration(stored)) {
        const legacy = {
          configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpointId },
        };
        yield (await this.legacyGetTuple(legacy))!;
      } else {
        yield await this.toTuple(stored, threadId, checkpointNs);
      }
    }
  }

  private async readCheckpoints(selection: string, args: unknown[]): Promise<StoredCheckpoint[]> {
    const { rows } = await this.pool.query(textQuery(readSql(this.schema, selection), args));
    return groupRows(rows);
  }

  private loadValue(serde: SerializerProtocol, value: StoredValue): Promise<unknown> {
    return serde.loadsTyped(value.type, value.data as Uint8Array | string);
  }

  /** Field for field as the official saver builds it. */
  private async toTuple(stored: StoredCheckpoint, thread_id: string, checkpoint_ns: string): Promise<CheckpointTuple> {
    const { checkpoint, blobs, writes, parentCheckpointId } = stored;
    const { serde } = this.saver;
    const loaded = await Promise.all(blobs.map((blob) => this.loadValue(serde, blob)));
    return {
      config: { configurable: { thread_id, checkpoint_ns, checkpoint_id: stored.checkpointId } },
      checkpoint: {
        ...checkpoint,
        channel_versions: checkpoint.channel_versions ?? {},
        versions_seen: checkpoint.versions_seen ?? {},
        channel_values: Object.fromEntries(blobs.map((blob, i) => [blob.channel, loaded[i]])),
      },
      metadata: await this.saver._loadMetadata(stored.metadata),
      parentConfig: parentCheckpointId
        ? { configurable: { thread_id, checkpoint_ns, checkpoint_id: parentCheckpointId } }
        : undefined,
      pendingWrites: await Promise.all(
        writes.map(async ({ taskId, channel, ...value }): Promise<[string, string, unknown]> => [
          taskId,
          channel,
          await this.loadValue(serde, value),
        ]),
      ),
    };
  }
}
