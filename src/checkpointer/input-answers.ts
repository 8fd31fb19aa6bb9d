// Front ends answer a stopped run's calls in the next input (`[...results, newMessage]`); the run's first read moves
// those results into the history (docs/tail-policy.md).
import { isMessageLike, rawToolCallIdOf, roleOf, toolCallsOf } from "../messages/message-view.js";

export type InputLists = Map<string, unknown[]>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** An input value as the messages reducer reads it: one message stands for a list of one. */
const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : [value]);

/** Whether an input value holds a tool result. */
export const holdsToolResult = (value: unknown): boolean =>
  listOf(value).some((v) => isMessageLike(v) && roleOf(v) === "tool");

/** `lists` undefined when none holds tool results. */
export function copyInputLists(input: unknown): { input: unknown; lists: InputLists | undefined } {
  if (!isPlainObject(input)) return { input, lists: undefined };
  let lists: InputLists | undefined;
  for (const [key, value] of Object.entries(input)) {
    if (holdsToolResult(value)) (lists ??= new Map()).set(key, [...listOf(value)]);
  }
  return lists === undefined ? { input, lists } : { input: { ...input, ...Object.fromEntries(lists) }, lists };
}

/** Answers to calls made before the input. */
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

export function takeAnswers(list: unknown[], answers: readonly unknown[]): void {
  const taken = new Set(answers);
  let kept = 0;
  for (const message of list) if (!taken.has(message)) list[kept++] = message;
  list.length = kept;
}
