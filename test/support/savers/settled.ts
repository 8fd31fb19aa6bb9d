/** Waiting for a cancelled run's thread to settle, where LangGraph returns before its checkpoints are stored. */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/**
 * Waits until the thread's latest checkpoint stays the same for three reads in a row, 30 ms apart (at most
 * about 3 s). Before LangGraph 1.4, a cancelled `invoke` returns before its checkpoints are stored, even with
 * `durability: "sync"`; with `"async"`, any line may still be writing.
 */
export async function settled(saver: BaseCheckpointSaver, thread: string): Promise<void> {
  const latest = async () => (await saver.getTuple({ configurable: { thread_id: thread } }))?.checkpoint.id;
  let id = await latest();
  for (let stable = 0, tries = 0; stable < 3 && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const next = await latest();
    stable = next === id && next !== undefined ? stable + 1 : 0;
    id = next;
  }
}
