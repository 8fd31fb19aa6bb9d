/**
 * Where IORedisSaver keeps a thread. Every key of one thread carries the
 * thread's hash tag, so one thread lives in one Cluster slot and each write
 * is a single MULTI. Ids are percent-encoded, so `:`, `{`, `}`, `|`, spaces
 * and non-ASCII text can never make two ids share a key or break the tag.
 *
 * ```
 * <prefix>:threads                           SET   every thread id (for list() without a thread_id)
 * <prefix>:{<thread>}:namespaces             SET   checkpoint namespaces of the thread
 * <prefix>:{<thread>}:<ns>:checkpoints       ZSET  checkpoint ids, all score 0 (uuid6 ids sort by time)
 * <prefix>:{<thread>}:<ns>:checkpoint        HASH  checkpoint id -> checkpoint, metadata, parent id
 * <prefix>:{<thread>}:<ns>:blobs             HASH  <channel>|<version> -> channel value
 * <prefix>:{<thread>}:<ns>:writes            HASH  <checkpoint>|<task>|<idx> -> pending write
 * <prefix>:{<thread>}:<ns>:writes-index      ZSET  <checkpoint>|<task>|<idx>, all score 0 (range per checkpoint)
 * ```
 */

/** Percent-encodes an id so it contains none of `:{}|` nor spaces. */
export const encodeId = (id: string): string => encodeURIComponent(id);
export const decodeId = (id: string): string => decodeURIComponent(id);

/** The keys of one namespace of one thread. */
export interface NamespaceKeys {
  checkpoints: string;
  checkpoint: string;
  blobs: string;
  writes: string;
  writesIndex: string;
}

/** The key layout under one prefix. */
export class KeyLayout {
  readonly threads: string;

  constructor(readonly prefix: string) {
    if (/[{}]/.test(prefix))
      throw new TypeError(
        `keyPrefix must not contain "{" or "}" (they would change the Cluster hash tag), got ${JSON.stringify(prefix)}.`,
      );
    this.threads = `${prefix}:threads`;
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
