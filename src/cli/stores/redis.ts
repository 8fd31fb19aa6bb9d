/** The doctor's Redis adapter: a store written by this package's `IORedisSaver`, on one server or a Cluster. */
import type { Cluster, Redis } from "ioredis";
import { redact } from "../../redact.js";
import type { IORedisSaver } from "../../redis/index.js";
import {
  compareRefs,
  DoctorStoreError,
  loadOptional,
  PAGE,
  type OpenStore,
  type ThreadFilter,
  type ThreadRef,
} from "../store.js";

/** Fail fast: the doctor is run by hand, and an unreachable store is reported, not waited for. */
const CONNECT = { maxRetriesPerRequest: 1, connectTimeout: 5000 } as const;
/** Commands issued together (a page of threads read at once) go out as one pipeline per node, Cluster included. */
const PIPELINED = { enableAutoPipelining: true } as const;

/**
 * The pairs in the report's order. SCAN visits keys in no order, so every pair (ids only, tens of megabytes for
 * a million threads) is collected and sorted before the first page; the checkpoints are read a page at a time.
 */
async function sortedThreads(saver: IORedisSaver, { after, ...filter }: ThreadFilter): Promise<ThreadRef[]> {
  const refs: ThreadRef[] = [];
  for await (const ref of saver.threads(filter)) if (!after || compareRefs(ref, after) > 0) refs.push(ref);
  return refs.sort(compareRefs);
}

async function* inPages(refs: Promise<ThreadRef[]>): AsyncGenerator<ThreadRef[]> {
  const all = await refs;
  for (let start = 0; start < all.length; start += PAGE) yield all.slice(start, start + PAGE);
}

export async function openRedis(url: string, keyPrefix = "langgraph"): Promise<OpenStore> {
  const ioredis = await loadOptional<typeof import("ioredis")>("ioredis");
  const { IORedisSaver } = await import("../../redis/index.js");
  const node = new ioredis.Redis(url, { ...CONNECT, ...PIPELINED, lazyConnect: true, retryStrategy: () => null });
  // connect() only says "Connection is closed."; the error event says why (ECONNREFUSED, auth, DNS).
  let cause: Error | undefined;
  node.on("error", (error: Error) => (cause = error));
  let client: Redis | Cluster = node;
  try {
    await node.connect();
    // A Cluster node answers only for its own slots (MOVED for the rest): the whole Cluster is opened from it.
    if (/cluster_enabled:1/.test(await node.info("cluster"))) client = await openCluster(ioredis, node);
  } catch (error) {
    node.disconnect();
    throw new DoctorStoreError(`cannot reach Redis at ${redact(url)}: ${(cause ?? (error as Error)).message}`);
  }
  const saver = new IORedisSaver(client, { keyPrefix });
  return {
    description: `Redis${client === node ? "" : " Cluster"} ${redact(url)} (prefix ${keyPrefix})`,
    saver,
    threads: (filter) => {
      const refs = sortedThreads(saver, filter);
      return {
        pages: inPages(refs),
        total: refs.then(
          (all) => all.length,
          () => undefined,
        ),
      };
    },
    // The saver's own getTuple for each, issued together: auto-pipelining sends them as one batch per node.
    latest: (refs) =>
      Promise.all(
        refs.map((r) => saver.getTuple({ configurable: { thread_id: r.threadId, checkpoint_ns: r.checkpointNs } })),
      ),
    close: async () => void (await client.quit()),
  };
}

/** The Cluster `node` belongs to, with `node`'s credentials and TLS settings; `node` is closed. */
async function openCluster(ioredis: typeof import("ioredis"), node: Redis): Promise<Cluster> {
  const { host, port, username, password, tls } = node.options;
  node.disconnect();
  const cluster = new ioredis.Cluster([{ host, port }], {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    ...PIPELINED,
    redisOptions: { ...CONNECT, username, password, tls },
  });
  cluster.on("error", () => {}); // connect() rejects with the reason
  await cluster.connect();
  return cluster;
}
