// Ride out a restart or failover and fail a call in bounded time, never applying a call reported failed: so
// `maxRetriesPerRequest`, never `commandTimeout`, which leaves the command queued (docs/redis.md).
import type { ClusterOptions, RedisOptions } from "ioredis";
import { assertOption } from "../options/assert-option.js";

/** Options of {@link resilientRedisOptions} and {@link resilientClusterOptions}. */
export interface ResilienceOptions {
  /**
   * How long a call waits for the server (or a Cluster failover) before it fails. Set it above your failover time: a
   * Cluster's is about twice its `cluster-node-timeout`.
   * @default 10000
   */
  outageMs?: number;
}

/** Between reconnection attempts, and between tries of a command during a failover. */
const RETRY_MS = 250;
/** For a host gone or packets dropped. */
const CONNECT_TIMEOUT_MS = 1000;

const attempts = ({ outageMs = 10_000 }: ResilienceOptions): number => {
  const valid = Number.isFinite(outageMs) && outageMs > 0;
  assertOption("outageMs", outageMs, valid, "must be a positive number of milliseconds");
  return Math.max(1, Math.ceil(outageMs / RETRY_MS));
};

/**
 * Options for `new Redis(url, options)`: reconnects every 250 ms for ever; a call made while the server is away
 * fails after about `outageMs` with `MaxRetriesPerRequestError`, never to be sent later.
 */
export function resilientRedisOptions(options: ResilienceOptions = {}): RedisOptions {
  return {
    retryStrategy: () => RETRY_MS,
    maxRetriesPerRequest: attempts(options) - 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
  };
}

/**
 * Options for `new Cluster(nodes, options)`: a command to a lost master is retried every 250 ms until its replica
 * takes over or `outageMs` passes. Reads go to masters: a replica may miss a checkpoint its master just acknowledged.
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
