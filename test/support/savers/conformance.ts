/** The official checkpointer conformance suite, on one backend, raw or through the sanitizer. */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { deltaChannelHistoryTests, validate } from "@langchain/langgraph-checkpoint-validation";
import { describe } from "vitest";
import { SanitizingCheckpointer } from "../../../src/index.js";
import type { SaverFactory } from "./savers.js";

export function conformanceSuite(factory: SaverFactory, { wrapped }: { wrapped: boolean }): void {
  const inners = new Map<BaseCheckpointSaver, BaseCheckpointSaver>();
  const initializer = {
    // The suite skips tests by the raw saver's name (full-snapshot savers do not store per-channel deltas).
    checkpointerName: factory.name,
    createCheckpointer: async () => {
      const inner = await factory.create();
      const saver = wrapped ? new SanitizingCheckpointer(inner) : inner;
      inners.set(saver, inner);
      return saver;
    },
    destroyCheckpointer: async (saver: BaseCheckpointSaver) => {
      await factory.destroy(inners.get(saver)!);
      inners.delete(saver);
    },
  };
  describe(wrapped ? `SanitizingCheckpointer(${factory.name})` : factory.name, () => {
    validate(initializer);
    deltaChannelHistoryTests(initializer);
  });
}
