/**
 * With `--trace`, what each thread's saver calls, sanitizer repairs and actions were, in order, kept until the
 * thread ends; a thread that fails prints its trace with the failure.
 */
const MAX_LINES = 400;

export class Traces {
  private readonly lines = new Map<string, { start: number; lines: string[] }>();

  constructor(readonly enabled: boolean) {}

  add(thread: string, event: string): void {
    if (!this.enabled) return;
    let trace = this.lines.get(thread);
    if (trace === undefined) this.lines.set(thread, (trace = { start: performance.now(), lines: [] }));
    if (trace.lines.length < MAX_LINES) trace.lines.push(`${(performance.now() - trace.start).toFixed(0)}ms ${event}`);
  }

  /** The thread's trace so far, one line per event. */
  of(thread: string): string {
    return this.lines.get(thread)?.lines.join("\n") ?? "";
  }

  drop(thread: string): void {
    this.lines.delete(thread);
  }
}
