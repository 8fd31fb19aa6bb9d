/**
 * Where IORedisSaver keeps a thread. Every key of one thread carries the
 * thread's hash tag, so one thread lives in one Cluster slot and each write
 * is a single MULTI. Ids are percent-encoded, so `:`, `{`, `}`, `|`, spaces
 * and non-ASCII text can never make two ids share a key or break the tag.
 *
 * ```
 * <prefix>:{<thread>}:namespaces             SET   checkpoint namespaces of the thread (found by SCAN to list threads)
 * <prefix>:{<thread>}:<ns>:checkpoints       ZSET  checkpoint ids, all score 0 (uuid6 ids sort by time)
 * <prefix>:{<thread>}:<ns>:checkpoint        HASH  checkpoint id -> checkpoint, metadata, parent id
 * <prefix>:{<thread>}:<ns>:blobs             HASH  <channel>|<version> -> channel value
 * <prefix>:{<thread>}:<ns>:writes            HASH  <checkpoint>|<task>|<idx> -> pending write
 * <prefix>:{<thread>}:<ns>:writes-index      ZSET  <checkpoint>|<task>|<idx>, all score 0 (range per checkpoint)
 * ```
 */
import { assertOption } from "../repair/validate.js";

/** A UTF-16 surrogate without its other half, which `encodeURIComponent` cannot encode. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** How a lone surrogate is written: `%uXXXX`, which percent-encoding never produces (it writes `%` as `%25`). */
const ENCODED_SURROGATE = /(%u[0-9A-F]{4})/;

/**
 * Percent-encodes an id so it contains none of `:{}|` nor spaces. Any JavaScript string is an id, as on the other
 * savers: a lone surrogate (not valid UTF-16, but a string all the same) is written as `%uXXXX`.
 */
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

/** The id {@link encodeId} encoded. */
export const decodeId = (encoded: string): string =>
  encoded
    .split(ENCODED_SURROGATE)
    .map((part, i) => (i % 2 === 1 ? String.fromCharCode(parseInt(part.slice(2), 16)) : decodeURIComponent(part)))
    .join("");

/** The keys of one namespace of one thread. */
export interface NamespaceKeys {
  checkpoints: string;
  checkpoint: string;
  blobs: string;
  writes: string;
  writesIndex: string;
}

/** Characters SCAN's MATCH treats as a pattern. */
const GLOB = /[*?[\]\\]/g;

/** The key layout under one prefix. */
export class KeyLayout {
  /** A SCAN MATCH pattern for every thread's `namespaces` key: one key per thread, in the thread's own slot. */
  readonly everyThread: string;

  constructor(readonly prefix: string) {
    const valid = typeof prefix === "string" && !/[{}]/.test(prefix);
    assertOption("keyPrefix", prefix, valid, 'must be a string without "{" or "}" (they would change the hash tag)');
    this.everyThread = `${prefix.replace(GLOB, "\\$&")}:{*}:namespaces`;
  }

  /** The thread id of a key {@link everyThread} matched. */
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

/** The field of a channel value in `blobs`. */
export const blobField = (channel: string, version: string | number): string =>
  `${encodeId(channel)}|${encodeId(String(version))}`;

/** The field of a pending write in `writes` and `writes-index`. */
export const writeField = (checkpointId: string, taskId: string, idx: number): string =>
  `${encodeId(checkpointId)}|${encodeId(taskId)}|${idx}`;

/** ZRANGEBYLEX bounds that select exactly the write fields of one checkpoint (`}` follows `|`). */
export const writeFieldRange = (checkpointId: string): [string, string] => [
  `[${encodeId(checkpointId)}|`,
  `(${encodeId(checkpointId)}}`,
];
