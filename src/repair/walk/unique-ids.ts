import { isCallIdChar, MAX_CALL_ID_LENGTH } from "../../messages/message-view.js";

/** Allocation-free for the clean check: open addressing over kept arrays, emptied by bumping an epoch. @internal */
let capacity = 1024;
let keys: string[] = new Array<string>(capacity).fill("");
let stamps = new Uint32Array(capacity);
let inTail = new Uint8Array(capacity);
let epoch = 0;
let size = 0;

export function hashText(text: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function resetIds(): void {
  size = 0;
  if (++epoch === 0xffffffff) {
    stamps.fill(0);
    epoch = 1;
  }
}

function grow(): void {
  const oldKeys = keys;
  const oldStamps = stamps;
  const oldTail = inTail;
  const oldEpoch = epoch;
  capacity *= 2;
  keys = new Array<string>(capacity).fill("");
  stamps = new Uint32Array(capacity);
  inTail = new Uint8Array(capacity);
  size = 0;
  for (let i = 0; i < oldKeys.length; i++) if (oldStamps[i] === oldEpoch) addId(oldKeys[i]!, oldTail[i] === 1);
}

/** False for a repeat outside the tail (the repair renames those; two tail calls with one id are left alone). */
export function addId(id: string, tail: boolean): boolean {
  return insert(id, hashText(id), tail);
}

/** False for an id providers reject or a repeat; validity is checked in the hash pass: this runs for every call. */
export function addValidId(id: string): boolean {
  const length = id.length;
  if (length === 0 || length > MAX_CALL_ID_LENGTH) return false;
  let h = 0x811c9dc5;
  for (let i = 0; i < length; i++) {
    const c = id.charCodeAt(i);
    if (!isCallIdChar(c)) return false;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return insert(id, h >>> 0, false);
}

function insert(id: string, hash: number, tail: boolean): boolean {
  if ((size + 1) * 2 > capacity) grow();
  const mask = capacity - 1;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    if (stamps[slot] !== epoch) {
      stamps[slot] = epoch;
      keys[slot] = id;
      inTail[slot] = tail ? 1 : 0;
      size++;
      return true;
    }
    if (keys[slot] === id) return tail && inTail[slot] === 1;
  }
}
