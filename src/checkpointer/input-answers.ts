/**
 * Tool results in a run's input that answer calls made before it. Chat front ends answer the calls a stopped run
 * left open themselves, in the next input (`[...results, newMessage]`), and frontend tools send their results the
 * same way. `sanitizeGraph` hands the run a copy of its input's lists; the run's first read moves these results
 * out of the copy and into the stored history, where each answers its call once (docs/tail-policy.md).
 */
import { isMessageLike, rawToolCallIdOf, roleOf, toolCallsOf } from "../messages/message-view.js";

/** The run's own copy of each input list that holds tool results, by channel. */
export type InputLists = Map<string, unknown[]>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

const isToolResult = (value: unknown) => isMessageLike(value) && roleOf(value) === "tool";

/**
 * `input` with a copy of each list that holds tool results, and those copies by key; `undefined` lists when it has
 * none (then `input` is returned as it is). A single message stands for a list of one, as the messages reducer reads it.
 */
export function copyInputLists(input: unknown): { input: unknown; lists: InputLists | undefined } {
  if (!isPlainObject(input)) return { input, lists: undefined };
  let lists: InputLists | undefined;
  for (const [key, value] of Object.entries(input)) {
    const list = Array.isArray(value) ? value : [value];
    if (list.some(isToolResult)) (lists ??= new Map()).set(key, [...list]);
  }
  return lists === undefined ? { input, lists } : { input: { ...input, ...Object.fromEntries(lists) }, lists };
}

/** The tool results of `list` whose calls no message of `list` makes: the answers to calls made before the input. */
export function answersIn(list: readonly unknown[]): unknown[] {
  const ownCalls = new Set<string>();
  const answers: unknown[] = [];
  for (const message of list) {
    const role = roleOf(message);
    if (role === "ai") for (const call of toolCallsOf(message)) ownCalls.add(call.id);
    else if (role === "tool" && !ownCalls.has(rawToolCallIdOf(message))) answers.push(message);
  }
  return answers;
}

/** Takes `answers` out of `list`, which then holds what the input adds after the stored history. */
export function takeAnswers(list: unknown[], answers: readonly unknown[]): void {
  const taken = new Set(answers);
  let kept = 0;
  for (const message of list) if (!taken.has(message)) list[kept++] = message;
  list.length = kept;
}
