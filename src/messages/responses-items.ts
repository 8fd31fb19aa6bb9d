/**
 * Reads of the OpenAI Responses items a reply keeps: the `response_metadata.output` that ChatOpenAI replays as
 * stored when every item is typed, and the reasoning item it sends from `additional_kwargs.reasoning` otherwise
 * (a reply whose response never completed has no output). Allocation-free: the clean check runs them for every
 * AIMessage.
 */
import { isReplayed } from "./message-view.js";
import { madeBy } from "./reply-origin.js";

type Loose = Record<string, unknown>;
type Item = Loose & { type?: unknown };

/** The output items ChatOpenAI replays for `message`, or undefined when it sends the message instead. */
export function replayedOutput(message: unknown): readonly unknown[] | undefined {
  const output = ((message as Loose).response_metadata as Loose | undefined)?.output;
  return Array.isArray(output) && output.length > 0 && isReplayed(output) ? output : undefined;
}

/** Whether `output[i]` is a reasoning item with no other kind of item right after it (pattern P). */
export function isLoneReasoningItem(output: readonly unknown[], i: number): boolean {
  return (
    (output[i] as Item).type === "reasoning" && (i + 1 >= output.length || (output[i + 1] as Item).type === "reasoning")
  );
}

/**
 * Whether the replayed output has a reasoning item not directly followed by the item it produced (a message, a
 * call): the Responses API rejects such a lone item (pattern P).
 */
export function hasLoneReasoningItem(message: unknown): boolean {
  const output = replayedOutput(message);
  if (output === undefined) return false;
  for (let i = 0; i < output.length; i++) if (isLoneReasoningItem(output, i)) return true;
  return false;
}

/** The hosted tools the Responses API runs itself, whose items a reply's output holds. */
const HOSTED_TOOL_ITEMS = new Set([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "mcp_call",
  "shell_call",
  "tool_search_call",
]);

/** Statuses of an item the API had not finished; `completed` and `failed` are finished. */
const UNFINISHED = new Set(["in_progress", "searching", "interpreting", "generating", "calling", "incomplete"]);

/** Whether `item` is a hosted-tool item stored before it finished (pattern U). */
export function isUnfinishedHostedItem(item: unknown): boolean {
  const it = item as Item | null;
  return (
    typeof it === "object" &&
    it !== null &&
    HOSTED_TOOL_ITEMS.has(it.type as string) &&
    UNFINISHED.has(it.status as string)
  );
}

/** Whether `list` holds an unfinished hosted-tool item. */
const holdsUnfinished = (list: unknown): boolean => Array.isArray(list) && list.some(isUnfinishedHostedItem);

/**
 * Whether the reply holds a hosted-tool item stored before it finished, in the output it replays or in the
 * `additional_kwargs.tool_outputs` ChatOpenAI sends when it has none (pattern U).
 */
export function hasUnfinishedHostedItem(message: unknown): boolean {
  const m = message as Loose;
  return (
    holdsUnfinished(replayedOutput(m)) || holdsUnfinished((m.additional_kwargs as Loose | undefined)?.tool_outputs)
  );
}

const hasEncryptedContent = (item: Loose): boolean =>
  typeof item.encrypted_content === "string" && item.encrypted_content !== "";

/**
 * Whether the reply's response was made with `store: false`: as its metadata records it (a streamed reply), or as
 * the app says of every response (`store`, the client's `zdrEnabled`).
 */
const notStored = (m: Loose, store: boolean | undefined): boolean =>
  store === false || (m.response_metadata as Loose | undefined)?.store === false;

/** Whether the reply's response never completed: its metadata has no status (a stream cut off before its end). */
const neverCompleted = (m: Loose): boolean => {
  const metadata = m.response_metadata as Loose | undefined;
  return madeBy(m, "responses-items") && metadata!.status === undefined;
};

/** Whether replayed output item `item` is a reasoning item `store: false` never kept (pattern V). */
export function isUnkeptOutputReasoning(message: unknown, item: unknown, store: boolean | undefined): boolean {
  const it = item as Item;
  return it.type === "reasoning" && !hasEncryptedContent(it) && notStored(message as Loose, store);
}

/**
 * Whether the reply sends a reasoning item the API cannot find (pattern V): one held only by its id (no
 * `encrypted_content`) in output replayed from a response `store: false` never kept (see `notStored`), or in the
 * `additional_kwargs.reasoning` ChatOpenAI sends for a reply whose response never completed.
 */
export function hasUnkeptReasoning(message: unknown, store: boolean | undefined): boolean {
  const m = message as Loose;
  const output = replayedOutput(m);
  if (output !== undefined) {
    for (let i = 0; i < output.length; i++) if (isUnkeptOutputReasoning(m, output[i], store)) return true;
    return false;
  }
  const reasoning = (m.additional_kwargs as Loose | undefined)?.reasoning as Loose | undefined;
  return typeof reasoning === "object" && reasoning !== null && !hasEncryptedContent(reasoning) && neverCompleted(m);
}
