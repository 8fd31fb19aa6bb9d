import type { RunContext, RunEnd, ThreadActivity } from "../checkpointer/run-context.js";

/** How many threads' last run ends are kept; the oldest is forgotten first. */
const ENDS_CAPACITY = 10_000;

/**
 * The runs a protected graph serves in this process, per thread: how many are in flight, and how the last one
 * ended. A run in flight, one paused at a breakpoint set on the run (the way LangGraph Studio steps through a
 * graph), and one that broke off store the same checkpoint; only the process that saw the run end knows which.
 * @internal
 */
export class RunTracker implements ThreadActivity {
  private readonly running = new Map<string, number>();
  /** The last run to end on each thread, and whether it stopped to be continued. */
  private readonly ends = new Map<string, { run: RunContext; ok: boolean }>();

  start(threadId: string): void {
    this.running.set(threadId, (this.running.get(threadId) ?? 0) + 1);
  }

  /** Records that a run started with {@link start} no longer runs. */
  stop(threadId: string): void {
    const count = (this.running.get(threadId) ?? 1) - 1;
    if (count > 0) this.running.set(threadId, count);
    else this.running.delete(threadId);
  }

  /** Records that a run ended; `ok` when it stopped to be continued, not broken off. */
  settle(threadId: string, run: RunContext, ok: boolean): void {
    this.ends.delete(threadId);
    this.ends.set(threadId, { run, ok });
    if (this.ends.size > ENDS_CAPACITY) this.ends.delete(this.ends.keys().next().value!);
  }

  isRunning(threadId: string): boolean {
    return this.running.has(threadId);
  }

  /**
   * Read from the run when asked: a run stores its last checkpoint after its stream has closed with durability
   * "exit" (and after an abort, however it closes).
   */
  lastEnd(threadId: string): RunEnd | undefined {
    const end = this.ends.get(threadId);
    return end && { checkpointId: end.run.lastCheckpointId, ok: end.ok };
  }
}
