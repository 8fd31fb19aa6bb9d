/** The doctor's Redis adapter: a store written by this package's `IORedisSaver`. */
import { redact } from "../../redact.js";
import { DoctorStoreError, loadOptional, type OpenStore } from "../store.js";

export async function openRedis(url: string, keyPrefix = "langgraph"): Promise<OpenStore> {
  const { Redis } = await loadOptional<typeof import("ioredis")>("ioredis");
  const { IORedisSaver } = await import("../../redis/index.js");
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
    connectTimeout: 5000,
  });
  // connect() only says "Connection is closed."; the error event says why (ECONNREFUSED, auth, DNS).
  let cause: Error | undefined;
  client.on("error", (error: Error) => (cause = error));
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new DoctorStoreError(`cannot reach Redis at ${redact(url)}: ${(cause ?? (error as Error)).message}`);
  }
  const saver = new IORedisSaver(client, { keyPrefix });
  return {
    description: `Redis ${redact(url)} (prefix ${keyPrefix})`,
    saver,
    threads: (filter) => saver.threads(filter),
    close: async () => void (await client.quit()),
  };
}
