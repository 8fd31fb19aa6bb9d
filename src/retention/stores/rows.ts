/** What every store's reading of a batch shares: metadata fields as retention takes them, and rows by thread. */
import type { CheckpointHead, StoredBlob, ThreadHistory } from "../history.js";

/** The channels `counters_since_delta_snapshot` names. @internal */
export const deltaChannelsOf = (counters: unknown): string[] =>
  typeof counters === "object" && counters !== null && !Array.isArray(counters) ? Object.keys(counters) : [];

/** `metadata.parents` when it maps namespaces to checkpoint ids. @internal */
export function parentsOf(parents: unknown): Record<string, string> {
  if (typeof parents !== "object" || parents === null || Array.isArray(parents)) return {};
  return Object.fromEntries(Object.entries(parents).filter(([, id]) => typeof id === "string")) as Record<
    string,
    string
  >;
}

/** The histories of `threadIds` that have a checkpoint, in that order. @internal */
export function groupByThread(
  threadIds: readonly string[],
  heads: readonly { threadId: string; head: CheckpointHead }[],
  blobs: readonly { threadId: string; blob: StoredBlob }[] = [],
): ThreadHistory[] {
  const histories = new Map<string, ThreadHistory>();
  for (const { threadId, head } of heads) {
    let history = histories.get(threadId);
    if (history === undefined) histories.set(threadId, (history = { threadId, checkpoints: [], blobs: [] }));
    history.checkpoints.push(head);
  }
  for (const { threadId, blob } of blobs) histories.get(threadId)?.blobs.push(blob);
  return threadIds.flatMap((id) => histories.get(id) ?? []);
}
