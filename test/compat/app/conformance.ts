/**
 * The official conformance suite through the packed package, inside a compatibility app whose versions
 * `@langchain/langgraph-checkpoint-validation` supports (test/compat/langgraph-matrix.test.ts). Bundled with
 * esbuild like scenarios.ts, and run by the app's own vitest (the suite registers through its globals).
 */
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { deltaChannelHistoryTests, validate } from "@langchain/langgraph-checkpoint-validation";
import { Redis } from "ioredis";
import { randomUUID } from "node:crypto";
import { SanitizingCheckpointer } from "langgraph-checkpoint-sanitizer";
import { IORedisSaver } from "langgraph-checkpoint-sanitizer/redis";

const suites: {
  name: string;
  create: () => BaseCheckpointSaver;
  destroy: (saver: BaseCheckpointSaver) => Promise<void>;
}[] = [
  { name: "MemorySaver", create: () => new MemorySaver(), destroy: async () => {} },
  {
    name: "IORedisSaver",
    create: () =>
      new IORedisSaver(new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"), {
        keyPrefix: `sanitizer-compat-${randomUUID().slice(0, 8)}`,
      }),
    destroy: async (saver) => {
      const { client, keys } = saver as unknown as { client: Redis; keys: { prefix: string } };
      for await (const found of client.scanStream({ match: `${keys.prefix}:*`, count: 500 })) {
        if ((found as string[]).length > 0) await client.del(...(found as string[]));
      }
      await client.quit();
    },
  },
];

// IORedisSaver only where the matrix has a Redis server (see COMPAT_BACKENDS in scenarios.ts).
const backends = (process.env.COMPAT_BACKENDS ?? "memory").split(",");
for (const { name, create, destroy } of suites.filter((s) => s.name === "MemorySaver" || backends.includes("redis"))) {
  const inners = new Map<BaseCheckpointSaver, BaseCheckpointSaver>();
  const initializer = {
    checkpointerName: name,
    createCheckpointer: () => {
      const inner = create();
      const saver = new SanitizingCheckpointer(inner);
      inners.set(saver, inner);
      return saver;
    },
    destroyCheckpointer: async (saver: BaseCheckpointSaver) => destroy(inners.get(saver)!),
  };
  validate(initializer);
  deltaChannelHistoryTests(initializer);
}
