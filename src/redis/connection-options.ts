/**
 * ioredis options that ride out a restart or a failover and fail a call in a bounded time when the outage lasts,
 * without a call that was reported failed being applied later.
 *
 * What the ioredis settings do to a command sent while the server is away:
 * - the offline queue (`enableOfflineQueue`, default on) holds it until the connection is back, then sends it;
 * - `maxRetriesPerRequest` fails it, and removes it from the queue, after that many reconnection attempts: it is
 *   never sent, so a failed write is not applied later;
 * - `commandTimeout` fails it after that many milliseconds but leaves it in the queue: a write reported failed is
 *   still sent, and applied, once the server is back. These options leave it unset.
 */
import type { ClusterOptions, RedisOptions } from "ioredis";
import { assertOption } from "../repair/validate.js";

/** Options of {@link resilientRedisOptions} and {@link resilientClusterOptions}. */
export interface ResilienceOptions {
  /**
   * How long a call waits for the server (or, on a Cluster, a failover) before it fails. Set it above your
   * failover time: a Cluster's is about twice its `cluster-node-timeout`.
   * @default 10000
   */
  outageMs?: number;
}

/** Milliseconds between two reconnection attempts, and between two tries of a command during a failover. */
const RETRY_MS = 250;
/** A connection attempt that neither succeeds nor is refused (a host gone, packets dropped) is given up after this. */
const CONNECT_TIMEOUT_MS = 1000;

const attempts = ({ outageMs = 10_000 }: ResilienceOptions): number => {
  const valid = Number.isFinite(outageMs) && outageMs > 0;
  assertOption("outageMs", outageMs, valid, "must be a positive number of milliseconds");
  return Math.max(1, Math.ceil(outageMs / RETRY_MS));
};

/**
 * Options for `new Redis(url, options)`: it reconnects every 250 ms for ever, and a call made while the server is
 * away fails after about `outageMs` (at most `outageMs` × 5 when every connection attempt times out) with
 * `MaxRetriesPerRequestError`, never to be sent later. IORedisSaver uses them for a connection it opens from a URL.
 */
export function resilientRedisOptions(options: ResilienceOptions = {}): RedisOptions {
  return {
    retryStrategy: () => RETRY_MS,
    maxRetriesPerRequest: attempts(options) - 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
  };
}

/**
 * Options for `new Cluster(nodes, options)`: a command to a master that went away is tried again every 250 ms, on
 * the new slot map, until its replica has taken over or `outageMs` has passed; then it fails with `Too many Cluster
 * redirections`. Commands to healthy masters are not held up. Reads go to masters (`scaleReads: "master"`): a replica
 * may not have a checkpoint its master just acknowledged.
 */
export function resilientClusterOptions(options: ResilienceOptions = {}): ClusterOptions {
  const tries = attempts(options);
  return {
    scaleReads: "master",
    maxRedirections: tries,
    retryDelayOnFailover: RETRY_MS,
    retryDelayOnClusterDown: RETRY_MS,
    retryDelayOnTryAgain: RETRY_MS,
    redisOptions: { connectTimeout: CONNECT_TIMEOUT_MS, maxRetriesPerRequest: tries - 1 },
  };
}
