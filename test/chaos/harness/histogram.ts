/**
 * Latencies in fixed memory: log-spaced buckets 2% wide from 1 µs to about 20 minutes, so that a soak of any
 * length keeps the same few kilobytes per series and its heap measures the sanitizer, not the harness.
 */
const MIN_MS = 0.001;
const GROWTH = 1.02;
const BUCKETS = 1200;
const LOG_GROWTH = Math.log(GROWTH);

export class Histogram {
  private readonly counts = new Uint32Array(BUCKETS);
  count = 0;

  record(ms: number): void {
    const index = ms <= MIN_MS ? 0 : Math.min(BUCKETS - 1, Math.floor(Math.log(ms / MIN_MS) / LOG_GROWTH));
    this.counts[index]!++;
    this.count++;
  }

  /** The `q` quantile (0 to 1), to the bucket's 2%; `NaN` when empty. */
  quantile(q: number): number {
    if (this.count === 0) return NaN;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return MIN_MS * GROWTH ** (i + 0.5);
    }
    return NaN;
  }

  /** Empties it, returning a copy of what it held. */
  drain(): Histogram {
    const copy = new Histogram();
    copy.counts.set(this.counts);
    copy.count = this.count;
    this.counts.fill(0);
    this.count = 0;
    return copy;
  }
}
