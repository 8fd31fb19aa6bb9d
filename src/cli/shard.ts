// `--shard K/N`: the threads one of N processes scans. A thread, with all its namespaces, goes to the shard its id's
// hash gives (the same in every process and run), so N processes cover the store once between them.
import { DoctorUsageError } from "./store.js";

/** Shard `index` (from 1) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

const encoder = new TextEncoder();

/** 32-bit FNV-1a of `text`'s UTF-8 bytes. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(text)) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash >>> 0;
}

export const inShard = (threadId: string, { index, count }: Shard): boolean => fnv1a(threadId) % count === index - 1;

/** `K/N` as given on the command line. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!(index >= 1 && index <= count))
    throw new DoctorUsageError(`--shard takes K/N with 1 <= K <= N (shard K of N), got ${text}`);
  return { index, count };
}
