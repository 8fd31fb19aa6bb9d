import type { RunContext, ThreadActivity } from "../checkpointer/run-context.js";

/** How many threads' last stops are kept; the oldest is forgotten first. */
const SETTLED_CAPACITY = 10_000;

/**
 * The runs a protected graph serves in this process, per thread: how many are in flight, and the root
 * checkpoint the last one stopped at without an error. A run in flight, or one paused at a breakpoint set on
 * the run (the way LangGraph Studio steps through a graph), leaves nothing in the checkpoint that tells it
 * from a run that broke off; this is how a `getState` in the same process reads it as the run left it.
 * @internal
 */
export class RunTracker implements ThreadActivity {
  private readonly running = new Map<string, number>();
  private readonly settled = new Map<string, string>();

  start(threadId: string): void {
    this.running.set(threadId, (this.running.get(threadId) ?? 0) + 1);
  }

  /** Records the end of a run started with {@link start}; `ok` when it ended without an error. */
  end(threadId: string, run: RunContext, ok: boolean): void {
    const count = (this.running.get(threadId) ?? 1) - 1;
    if (count > 0) this.running.set(threadId, count);
    else this.running.delete(threadId);
    this.settled.delete(threadId);
    if (!ok || run.lastCheckpointId === undefined) return;
    this.settled.set(threadId, run.lastCheckpointId);
    if (this.settled.size > SETTLED_CAPACITY) this.settled.delete(this.settled.keys().next().value!);
  }

  isRunning(threadId: string): boolean {
    return this.running.has(threadId);
  }

  settledAt(threadId: string): string | undefined {
    return this.settled.get(threadId);
  }
}
