import type { ThreadIdRecording } from "./telemetry-option.js";

const encoder = new TextEncoder();
const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/** 64-bit FNV-1a of `id`'s UTF-8 bytes, as 16 hex digits: 32 bits (the doctor's shard hash) collide in 100,000 ids. */
export function hashThreadId(id: string): string {
  let hash = OFFSET;
  for (const byte of encoder.encode(id)) hash = ((hash ^ BigInt(byte)) * PRIME) & MASK;
  return hash.toString(16).padStart(16, "0");
}

/** A thread id as a span records it; a run's operations are on one thread, so the last hash is kept. @internal */
export class ThreadIds {
  private last: [id: string, hash: string] | undefined;

  constructor(readonly recording: ThreadIdRecording) {}

  /** `undefined` when it is left out. */
  shown(threadId: unknown): string | undefined {
    if (threadId === undefined || threadId === null || this.recording === "omitted") return undefined;
    const id = String(threadId);
    if (this.recording === "as-stored") return id;
    if (this.last?.[0] !== id) this.last = [id, hashThreadId(id)];
    return this.last[1];
  }
}
