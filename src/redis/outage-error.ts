/** The error a call gets when Redis stayed away longer than the client waits. */

/** ioredis's words for a call given up because its server is away. */
const OUTAGE =
  /^(Reached the max retries per request limit|Too many Cluster redirections|Connection is closed|Stream isn't writeable|Cluster isn't ready|Failed to refresh slots cache)/;

/** A call failed because Redis (or a Cluster's master for the thread) was unreachable; nothing of it was applied. */
export class RedisUnavailableError extends Error {
  override name = "RedisUnavailableError";
}

/** `error` itself, or a {@link RedisUnavailableError} naming the outage and the settings that wait longer for it. */
export function explainOutage(error: unknown): unknown {
  if (!(error instanceof Error) || !OUTAGE.test(error.message)) return error;
  return new RedisUnavailableError(
    `Redis is unreachable (${error.message}). To ride out longer restarts and failovers, create the client with ` +
      "resilientRedisOptions({ outageMs }) or resilientClusterOptions({ outageMs }) from this package (or raise " +
      "ioredis's maxRetriesPerRequest, or maxRedirections × retryDelayOnFailover on a Cluster).",
    { cause: error },
  );
}
