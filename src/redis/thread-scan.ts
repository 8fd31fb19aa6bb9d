// IORedisSaver finds every thread (for `list()` without a `thread_id`, and the doctor) by a SCAN for each thread's
// `namespaces` key on every master. No write touches a key every thread shares, so a thread's writes need only its own
// slot (on a Cluster, one shard's failover never stalls another's threads), and nothing is kept that could go stale.
import type { Cluster, Redis } from "ioredis";
import type { KeyLayout } from "./keys.js";

/** Keys SCAN is asked to look at per call. */
const SCAN_COUNT = 1000;

/** The thread ids of the store, a page at a time, unsorted; SCAN may give one twice. */
export async function* scanThreads(client: Redis | Cluster, keys: KeyLayout): AsyncGenerator<string[]> {
  let nodes: Redis[] = [client as Redis];
  if (client.isCluster) {
    // A Cluster knows its masters once connected; a command waits for that.
    await client.ping();
    nodes = (client as Cluster).nodes("master");
  }
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, found] = await node.scan(cursor, "MATCH", keys.everyThread, "COUNT", SCAN_COUNT);
      cursor = next;
      if (found.length > 0) yield found.map((key) => keys.threadOf(key));
    } while (cursor !== "0");
  }
}
