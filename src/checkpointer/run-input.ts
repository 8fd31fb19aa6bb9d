// A run's input, which sanitizeGraph hands to the run's first read: the messages it appends are repaired with the
// stored history they follow, as the model will get them (docs/tail-policy.md).
import { idOf, isMessageLike, isRemoveMessage, roleOf } from "../messages/message-view.js";
import { repairWith, type RepairResult, type TailKind } from "../repair/repair-messages.js";
import type { ResolvedRepairSettings } from "../repair/settings.js";

/** The run's own copies of its input's lists, by key, which the first read may rewrite. */
export type InputLists = Map<string, unknown[]>;

/** LangGraph's `REMOVE_ALL_MESSAGES`. */
const REMOVE_ALL = "__remove_all__";

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** A message stands for a list of one, as the reducer reads it. */
const listOf = (value: unknown): unknown[] => [].concat(value as never);

/** Whether an input value holds a tool result, which may answer the very calls the thread's tail left open. */
export const holdsToolResult = (value: unknown): boolean =>
  listOf(value).some((v) => isMessageLike(v) && roleOf(v) === "tool");

export function copyInputLists(input: unknown): { input: unknown; lists: InputLists | undefined } {
  if (!isPlainObject(input)) return { input, lists: undefined };
  let lists: InputLists | undefined;
  for (const [key, value] of Object.entries(input)) {
    if (Array.isArray(value) || isMessageLike(value)) (lists ??= new Map()).set(key, listOf(value));
  }
  return lists === undefined ? { input, lists } : { input: { ...input, ...Object.fromEntries(lists) }, lists };
}

/** The list an input stored in a checkpoint (`__start__`) gave `channel`. */
export function storedInputList(input: unknown, channel: string): unknown[] | undefined {
  const value = isPlainObject(input) ? input[channel] : undefined;
  return value === undefined ? undefined : listOf(value);
}

const isRemoveAll = (message: unknown) => isRemoveMessage(message) && idOf(message) === REMOVE_ALL;

/** What the messages reducer makes of `stored` and `list`: undefined where the list removes a message by id. */
function merge(stored: readonly unknown[], list: readonly unknown[]) {
  let cut = list.length - 1;
  while (cut >= 0 && !isRemoveAll(list[cut])) cut--;
  // After REMOVE_ALL the reducer keeps the rest of the input as it is.
  if (cut >= 0) return { messages: list.slice(cut + 1), inputStart: 0, head: list.slice(0, cut + 1), replacing: [] };
  if (list.some(isRemoveMessage)) return undefined;
  const messages = [...stored];
  const at = new Map<string, number>();
  messages.forEach((m, i) => {
    const id = idOf(m);
    if (id !== undefined) at.set(id, i);
  });
  const replacing: unknown[] = [];
  for (const message of list) {
    const id = idOf(message);
    const i = id === undefined ? undefined : at.get(id);
    if (i !== undefined && i < stored.length) replacing.push(message);
    if (i !== undefined) messages[i] = message;
    else {
      if (id !== undefined) at.set(id, messages.length);
      messages.push(message);
    }
  }
  return { messages, inputStart: stored.length, head: [], replacing };
}

/** Rewrites the run's own copy of an input list in place (the input the run applies holds that array). */
export function rewriteList(list: unknown[], messages: readonly unknown[]): void {
  if (messages === list) return;
  list.length = 0;
  for (const message of messages) list.push(message);
}

/** The stored list as the read returns it, the input as the run applies it, and what was repaired. */
export interface InputRepair {
  stored: readonly unknown[];
  input: unknown[];
  result: RepairResult;
}

/**
 * Repairs `stored` and the `list` a run's input appends to it as one history ending in a model request (`tail` says
 * how the stored part ends), then splits it back: the read returns the part before the input's first message, and
 * the input holds the rest. Undefined where the input removes a message by id, which only the reducer can apply.
 */
export function repairWithInput(
  stored: readonly unknown[],
  list: readonly unknown[],
  settings: ResolvedRepairSettings,
  tail: TailKind,
  recovered: readonly unknown[] = [],
): InputRepair | undefined {
  const merged = merge(stored, list);
  if (merged === undefined) return undefined;
  const { messages, inputStart, head, replacing } = merged;
  // Nothing stored is kept before the input: its first message opens the history.
  const storedTail = inputStart === 0 ? "finished" : tail;
  const result = repairWith(messages, settings, storedTail, recovered, inputStart);
  if (result.messages === messages) return { stored, input: list as unknown[], result };
  const at = result.inputStart!;
  if (head.length > 0) return { stored, input: [...head, ...result.messages], result };
  const before = result.messages.slice(0, at);
  // The input's replacements of stored messages stay in it, as the repair left them.
  const kept = new Set(replacing.map(idOf));
  const replaced = before.filter((m) => kept.has(idOf(m)));
  const same = before.length === stored.length && before.every((m, i) => m === stored[i]);
  return { stored: same ? stored : before, input: [...replaced, ...result.messages.slice(at)], result };
}
