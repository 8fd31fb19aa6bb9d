import type { ChainableCommander } from "ioredis";

/** A failed command in a MULTI would otherwise pass silently. @internal */
export async function execAtomically(multi: ChainableCommander): Promise<void> {
  const results = await multi.exec();
  if (results === null) throw new Error("Redis transaction was aborted.");
  for (const [error] of results) if (error) throw error;
}
