import type { RunContext, RunEnd, ThreadActivity } from "../checkpointer/run-context.js";

/** The oldest thread is forgotten first. */
const ENDS_CAPACITY = 10_000;

/**
 * A run in flight, one paused at a run's breakpoint (Studio stepping) and one that broke off store the same
 * checkpoint; only the process that saw the run end knows which. @internal
 */
export class RunTracker implements ThreadActivity {
  private readonly running = new Map<string, number>();
  private readonly ends = new Map<string, { run: RunContext; ok: boolean }>();

  start(threadId: string): void {
    this.running.set(threadId, (this.running.get(threadId) ?? 0) + 1);
  }

  stop(threadId: string): void {
    const count = (this.running.get(threadId) ?? 1) - 1;
    if (count > 0) this.running.set(threadId, count);
    else this.running.delete(threadId);
  }

  /** `ok` when it stopped to be continued, not broken off. */
  settle(threadId: string, run: RunContext, ok: boolean): void {
    this.ends.delete(threadId);
    this.ends.set(threadId, { run, ok });
    if (this.ends.size > ENDS_CAPACITY) this.ends.delete(this.ends.keys().next().value!);
  }

  isRunning(threadId: string): boolean {
    return this.running.has(threadId);
  }

  /** Read when asked: with durability "exit" a run stores its last checkpoint after its stream closed. */
  lastEnd(threadId: string): RunEnd | undefined {
    const end = this.ends.get(threadId);
    return end && { checkpointId: end.run.lastCheckpointId, ok: end.ok };
  }
}
