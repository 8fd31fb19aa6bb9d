import { coerceMessageLikeToMessage, type BaseMessageLike } from "@langchain/core/messages";
import type { CheckpointPendingWrite } from "@langchain/langgraph-checkpoint";
import { isMessageLike, roleOf } from "../messages/message-view.js";

/** Tool results that finished tasks wrote to a channel, with the writes they came from. */
export interface StrandedResults {
  /** The results, as message instances (pending writes hold raw node output). */
  messages: unknown[];
  /** For each write index that holds results, the messages taken from it. */
  byWrite: Map<number, unknown[]>;
}

/**
 * The ToolMessages that finished tasks wrote to `channel` but that are not in the channel yet (`stranded-tool-result`):
 * with parallel tasks, a cancelled run keeps the finished siblings' writes, and new input would discard them.
 */
export function strandedResults(
  pendingWrites: readonly CheckpointPendingWrite[] | undefined,
  channel: string,
): StrandedResults {
  const found: StrandedResults = { messages: [], byWrite: new Map() };
  pendingWrites?.forEach(([, writeChannel, value], index) => {
    if (writeChannel !== channel) return;
    const values = Array.isArray(value) ? value : [value];
    const results = values.filter((v) => isMessageLike(v) && roleOf(v) === "tool");
    // A write that mixes results with other messages is not ours to take apart.
    if (results.length === 0 || results.length !== values.length) return;
    const messages = results.map((m) => coerceMessageLikeToMessage(m as BaseMessageLike));
    found.messages.push(...messages);
    found.byWrite.set(index, messages);
  });
  return found;
}

/** `pendingWrites` without the writes whose every result the repair used (`used`: the messages it put in the list). */
export function withoutUsedWrites(
  pendingWrites: CheckpointPendingWrite[],
  stranded: StrandedResults,
  used: readonly unknown[],
): CheckpointPendingWrite[] {
  if (used.length === 0) return pendingWrites;
  const taken = new Set(used);
  return pendingWrites.filter((_, index) => {
    const messages = stranded.byWrite.get(index);
    return messages === undefined || !messages.every((m) => taken.has(m));
  });
}
