// Every key of a thread carries its hash tag, so a thread lives in one Cluster slot and a write is one MULTI. Ids
// are percent-encoded so no two share a key. Layout: docs/redis.md.
import { assertOption } from "../options/assert-option.js";

/** `encodeURIComponent` cannot encode a lone surrogate. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Percent-encoding never produces `%u` (it writes `%` as `%25`). */
const ENCODED_SURROGATE = /(%u[0-9A-F]{4})/;

/** Any JavaScript string is an id, as on the other savers: a lone surrogate is written `%uXXXX`. */
export function encodeId(id: string): string {
  let out = "";
  let from = 0;
  for (const match of id.matchAll(LONE_SURROGATE)) {
    const unit = match[0].charCodeAt(0).toString(16).toUpperCase();
    out += `${encodeURIComponent(id.slice(from, match.index))}%u${unit}`;
    from = match.index + 1;
  }
  return out + encodeURIComponent(id.slice(from));
}

export const decodeId = (encoded: string): string =>
  encoded
    .split(ENCODED_SURROGATE)
    .map((part, i) => (i % 2 === 1 ? String.fromCharCode(parseInt(part.slice(2), 16)) : decodeURIComponent(part)))
    .join("");

export interface NamespaceKeys {
  checkpoints: string;
  checkpoint: string;
  blobs: string;
  writes: string;
  writesIndex: string;
}

/** SCAN's MATCH glob characters. */
const GLOB = /[*?[\]\\]/g;

export class KeyLayout {
  /** One `namespaces` key per thread, in the thread's own slot. */
  readonly everyThread: string;

  constructor(readonly prefix: string) {
    const valid = typeof prefix === "string" && !/[{}]/.test(prefix);
    assertOption("keyPrefix", prefix, valid, 'must be a string without "{" or "}" (they would change the hash tag)');
    this.everyThread = `${prefix.replace(GLOB, "\\$&")}:{*}:namespaces`;
  }

  threadOf(namespacesKey: string): string {
    return decodeId(namespacesKey.slice(this.prefix.length + 2, -"}:namespaces".length));
  }

  private thread(threadId: string): string {
    return `${this.prefix}:{${encodeId(threadId)}}`;
  }

  namespaces(threadId: string): string {
    return `${this.thread(threadId)}:namespaces`;
  }

  namespace(threadId: string, checkpointNs: string): NamespaceKeys {
    const base = `${this.thread(threadId)}:${encodeId(checkpointNs)}`;
    return {
      checkpoints: `${base}:checkpoints`,
      checkpoint: `${base}:checkpoint`,
      blobs: `${base}:blobs`,
      writes: `${base}:writes`,
      writesIndex: `${base}:writes-index`,
    };
  }
}

export const blobField = (channel: string, version: string | number): string =>
  `${encodeId(channel)}|${encodeId(String(version))}`;

export const writeField = (checkpointId: string, taskId: string, idx: number): string =>
  `${encodeId(checkpointId)}|${encodeId(taskId)}|${idx}`;

/** `}` follows `|`, so this selects exactly one checkpoint's writes. */
export const writeFieldRange = (checkpointId: string): [string, string] => [
  `[${encodeId(checkpointId)}|`,
  `(${encodeId(checkpointId)}}`,
];
