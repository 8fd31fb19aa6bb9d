// The ids of the messages the sanitizer inserts, with no dependency: a browser's chat page reads them (/client).
import type { BaseMessage } from "@langchain/core/messages";

/** Ids derived from the neighbours' ids: repeated reads give identical messages, which the reducer merges by id. */
export const SYNTHETIC_ID_PREFIX = "sanitizer-";

/** `sanitizer-` and the kind of message, after the app's `idPrefix` if any. */
const SYNTHETIC_ID = /^(?:[\w:.-]*[-_:.])?sanitizer-(?:result|reply|opening|between|continue)-/;

/**
 * A placeholder or a marker the sanitizer inserted (a message, or anything with its `id`), whatever `idPrefix` it was
 * inserted with: for a chat page that renders none of them.
 */
export function isSyntheticMessage(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  const id = (message as { id?: unknown }).id;
  return typeof id === "string" && SYNTHETIC_ID.test(id);
}

/** @internal */
export const isIdPrefix = (prefix: unknown): prefix is string =>
  typeof prefix === "string" && (prefix === "" || /^[\w:.-]{0,63}[-_:.]$/.test(prefix));

/** `message`, a fresh instance, under `prefix` + its id. @internal */
export function withIdPrefix<T extends BaseMessage>(message: T, prefix: string): T {
  if (prefix === "") return message;
  message.id = `${prefix}${message.id}`;
  message.lc_kwargs.id = message.id;
  return message;
}
