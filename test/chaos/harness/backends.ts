/**
 * The backends of the soak, one at a time: the saver (from the test suite's factories, each isolated in its own
 * file, schema or key prefix), a timing layer around it that records what the saver's own `getTuple` takes, and
 * the one `SanitizingCheckpointer` every graph of the backend is compiled with.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import {
  fastPostgresFactory,
  memoryFactory,
  postgresFactory,
  redisFactory,
  sqliteFactory,
  type SaverFactory,
} from "../../support/savers/savers.js";
import { serviceAvailable } from "../../support/servers/services.js";

export const BACKENDS = ["memory", "sqlite", "postgres", "fast-postgres", "redis"] as const;
export type Backend = (typeof BACKENDS)[number];

export const BACKEND_LABELS: Record<Backend, string> = {
  memory: "MemorySaver",
  sqlite: "SqliteSaver",
  postgres: "PostgresSaver",
  "fast-postgres": "FastPostgresSaver",
  redis: "IORedisSaver",
};

const FACTORIES: Record<Backend, SaverFactory> = {
  memory: memoryFactory,
  sqlite: sqliteFactory,
  postgres: postgresFactory,
  "fast-postgres": fastPostgresFactory,
  redis: redisFactory,
};

const SERVICE: Partial<Record<Backend, "postgres" | "redis">> = {
  postgres: "postgres",
  "fast-postgres": "postgres",
  redis: "redis",
};

/** The backends of `wanted` whose server is up (a missing one is skipped with a message, or fails under CI=true). */
export async function availableBackends(wanted: readonly Backend[]): Promise<Backend[]> {
  const up: Backend[] = [];
  for (const backend of wanted) {
    const service = SERVICE[backend];
    if (service === undefined || (await serviceAvailable(service))) up.push(backend);
  }
  return up;
}

/** Where a saver call is traced: its thread, and what it did. */
export type SaverTrace = (thread: string, event: string) => void;

const ns = (config: RunnableConfig) => String(config.configurable?.checkpoint_ns ?? "") || "root";

/**
 * A saver that passes everything to `inner`, times each of its `getTuple` calls with `record`, and, given a
 * `trace`, reports what each call read and wrote.
 */
export class TimedSaver<V extends string | number = number> extends BaseCheckpointSaver<V> {
  constructor(
    readonly inner: BaseCheckpointSaver<V>,
    private readonly record: (ms: number) => void,
    private readonly trace?: SaverTrace,
  ) {
    super(inner.serde);
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const start = performance.now();
    try {
      const tuple = await this.inner.getTuple(config);
      this.trace?.(
        String(config.configurable?.thread_id),
        `getTuple ${ns(config)} ${config.configurable?.checkpoint_id ?? "latest"} -> ${tuple?.checkpoint.id} ` +
          `(${tuple?.pendingWrites?.map(([task, channel]) => `${task.slice(0, 8)}:${channel}`).join(" ") ?? ""})`,
      );
      return tuple;
    } finally {
      this.record(performance.now() - start);
    }
  }

  override list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }

  override put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    this.trace?.(
      String(config.configurable?.thread_id),
      `put ${ns(config)} ${checkpoint.id} (parent ${config.configurable?.checkpoint_id}, ${metadata?.source} step ${metadata?.step}, ` +
        `${(checkpoint.channel_values?.messages as unknown[] | undefined)?.length ?? "-"} messages)`,
    );
    return this.inner.put(config, checkpoint, metadata, newVersions);
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    this.trace?.(
      String(config.configurable?.thread_id),
      `putWrites ${ns(config)} ${config.configurable?.checkpoint_id} ${taskId.slice(0, 8)}: ${writes.map(([c]) => c).join(" ")}`,
    );
    return this.inner.putWrites(config, writes, taskId, taskPath);
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: V | undefined): V {
    return this.inner.getNextVersion(current);
  }
}

/** An open backend: the saver itself (for raw reads) and the timed layer the sanitizer wraps. */
export interface OpenBackend {
  backend: Backend;
  saver: BaseCheckpointSaver;
  timed: TimedSaver;
  close(): Promise<void>;
}

/** Opens a fresh, isolated `backend`; `record` gets the time of each `getTuple` of its saver through the timed layer. */
export async function openBackend(
  backend: Backend,
  record: (ms: number) => void,
  trace?: SaverTrace,
): Promise<OpenBackend> {
  const factory = FACTORIES[backend];
  const saver = await factory.create();
  return { backend, saver, timed: new TimedSaver(saver, record, trace), close: () => factory.destroy(saver) };
}
