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
  private readonly ends = new Map<string, RunEnd>();

  start(threadId: string): void {
    this.running.set(threadId, (this.running.get(threadId) ?? 0) + 1);
  }

  /** Records the end of a run started with {@link start}; `ok` when it stopped to be continued, not broken off. */
  end(threadId: string, run: RunContext, ok: boolean): void {
    const count = (this.running.get(threadId) ?? 1) - 1;
    if (count > 0) this.running.set(threadId, count);
    else this.running.delete(threadId);
    this.ends.delete(threadId);
    this.ends.set(threadId, { checkpointId: run.lastCheckpointId, ok });
    if (this.ends.size > ENDS_CAPACITY) this.ends.delete(this.ends.keys().next().value!);
  }

  isRunning(threadId: string): boolean {
    return this.running.has(threadId);
  }

  lastEnd(threadId: string): RunEnd | undefined {
    return this.ends.get(threadId);
  }
}
