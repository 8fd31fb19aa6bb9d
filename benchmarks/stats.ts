/** Small statistics for interleaved raw/sanitized timings. */

export const median = (values: number[]) => quantile(values, 0.5);

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export interface Comparison {
  rawMs: number;
  sanitizedMs: number;
  /** Median of the per-pair ratios sanitized / raw. */
  ratio: number;
  /** Interquartile range of the per-pair ratios. */
  spread: [number, number];
  pairs: number;
}

/**
 * Times `raw` and `sanitized` in pairs, alternating which goes first so that
 * warm caches and GC favour neither, and compares them pair by pair.
 */
export async function compare(
  raw: () => Promise<unknown>,
  sanitized: () => Promise<unknown>,
  pairs: number,
): Promise<Comparison> {
  const time = async (fn: () => Promise<unknown>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  await raw();
  await sanitized();
  const rawTimes: number[] = [];
  const sanitizedTimes: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    let r: number;
    let s: number;
    if (i % 2 === 0) {
      r = await time(raw);
      s = await time(sanitized);
    } else {
      s = await time(sanitized);
      r = await time(raw);
    }
    rawTimes.push(r);
    sanitizedTimes.push(s);
    ratios.push(s / r);
  }
  return {
    rawMs: median(rawTimes),
    sanitizedMs: median(sanitizedTimes),
    ratio: median(ratios),
    spread: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    pairs,
  };
}
