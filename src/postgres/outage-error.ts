/** The error a call gets when Postgres, or PgBouncer in front of it, is unreachable or ended the connection. */

/** Network errors, and Postgres's codes for a server shutting down (57P0x) or a connection lost (08xxx). */
const OUTAGE_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|EPIPE|57P0[123]|08\d\d\d)$/;
/** node-postgres's words for a connection that ended or never came. */
const OUTAGE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/** A call failed because Postgres (or PgBouncer) was unreachable or ended its connection; retry it once it is back. */
export class PostgresUnavailableError extends Error {
  override name = "PostgresUnavailableError";
}

/** `error` itself, or a {@link PostgresUnavailableError} naming the outage and what to set. */
export function explainPostgresOutage(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { code } = error as { code?: unknown };
  if (!(typeof code === "string" && OUTAGE_CODES.test(code)) && !OUTAGE_MESSAGES.test(error.message)) return error;
  return new PostgresUnavailableError(
    `Postgres is unreachable or ended the connection (${error.message}); the saver connects again on the next ` +
      "call. A call waits for a connection up to the pool's connectionTimeoutMillis (5000 with fromConnString); " +
      "behind PgBouncer, lower server_login_retry so it logs in again soon after Postgres is back.",
    { cause: error },
  );
}
