/**
 * `source`, asking for each item as soon as the one before is handed out: the doctor and `prune` list their next page
 * of threads while they read this one, where a Postgres cursor's fetch would otherwise stall every worker once a page.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  // Handled now so a failure waits, unreported, for the read that takes it (or is dropped with a scan stopped first).
  const request = () => {
    const next = iterator.next();
    next.catch(() => {});
    return next;
  };
  let next = request();
  try {
    for (let result = await next; result.done !== true; result = await next) {
      next = request();
      yield result.value;
    }
  } finally {
    await iterator.return?.();
  }
}
