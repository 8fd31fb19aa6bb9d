/** Running one scenario on the raw saver and through the sanitizer, and comparing what the caller saw. */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { SanitizingCheckpointer } from "../../../src/index.js";

/**
 * What a run returned, without what is random per run: message and interrupt
 * ids, checkpoint ids and timestamps. Everything else must be equal.
 */
export function comparable(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v) => {
      if (key === "id" || key === "checkpoint_id" || key === "ts" || key === "lc_kwargs") return undefined;
      if (v && typeof v === "object" && typeof v.toDict === "function")
        return { type: v.type, ...v.toDict().kwargs, id: undefined };
      return v;
    }),
  );
}

/** Runs `scenario` once on `open()`'s raw saver and once through the sanitizer around another. */
export async function rawAndSanitized<T>(
  open: () => Promise<BaseCheckpointSaver>,
  scenario: (checkpointer: BaseCheckpointSaver) => Promise<T>,
): Promise<{ raw: T; sanitized: T }> {
  const raw = await scenario(await open());
  const sanitized = await scenario(new SanitizingCheckpointer(await open()));
  return { raw, sanitized };
}
