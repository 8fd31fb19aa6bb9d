// The official checkpointer conformance suite, run through the sanitizer around each backend.
import { deltaChannelHistoryTests, validate } from "@langchain/langgraph-checkpoint-validation";
import { describe } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { saverFactories } from "../support/savers.js";

for (const factory of saverFactories) {
  const inners = new Map<SanitizingCheckpointer, Awaited<ReturnType<typeof factory.create>>>();
  const initializer = {
    // The suite skips tests by the raw saver's name (full-snapshot savers do not store per-channel deltas).
    checkpointerName: factory.name,
    createCheckpointer: async () => {
      const inner = await factory.create();
      const wrapped = new SanitizingCheckpointer(inner);
      inners.set(wrapped, inner);
      return wrapped;
    },
    destroyCheckpointer: async (wrapped: SanitizingCheckpointer) => {
      await factory.destroy(inners.get(wrapped)!);
      inners.delete(wrapped);
    },
  };
  describe(`SanitizingCheckpointer(${factory.name})`, () => {
    validate(initializer);
    deltaChannelHistoryTests(initializer);
  });
}
