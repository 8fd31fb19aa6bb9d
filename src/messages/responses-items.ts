// OpenAI Responses items a reply keeps. Allocation-free: the clean check runs these for every AIMessage.
import { isReplayed } from "./message-view.js";
import { madeBy } from "./reply-origin.js";

type Loose = Record<string, unknown>;
type Item = Loose & { type?: unknown };

/** Undefined when ChatOpenAI sends the message instead. */
export function replayedOutput(message: unknown): readonly unknown[] | undefined {
  const output = ((message as Loose).response_metadata as Loose | undefined)?.output;
  return Array.isArray(output) && output.length > 0 && isReplayed(output) ? output : undefined;
}

export function isLoneReasoningItem(output: readonly unknown[], i: number): boolean {
  return (
    (output[i] as Item).type === "reasoning" && (i + 1 >= output.length || (output[i + 1] as Item).type === "reasoning")
  );
}

/** The Responses API rejects a reasoning item not directly followed by the item it produced (`lone-reasoning-item`). */
export function hasLoneReasoningItem(message: unknown): boolean {
  const output = replayedOutput(message);
  if (output === undefined) return false;
  for (let i = 0; i < output.length; i++) if (isLoneReasoningItem(output, i)) return true;
  return false;
}

/** The API runs these itself. */
const HOSTED_TOOL_ITEMS = new Set([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "mcp_call",
  "shell_call",
  "tool_search_call",
]);

/** `completed` and `failed` are finished. */
const UNFINISHED = new Set(["in_progress", "searching", "interpreting", "generating", "calling", "incomplete"]);

/** `unfinished-hosted-tool-item`. */
export function isUnfinishedHostedItem(item: unknown): boolean {
  const it = item as Item | null;
  return (
    typeof it === "object" &&
    it !== null &&
    HOSTED_TOOL_ITEMS.has(it.type as string) &&
    UNFINISHED.has(it.status as string)
  );
}

const holdsUnfinished = (list: unknown): boolean => Array.isArray(list) && list.some(isUnfinishedHostedItem);

/** In the replayed output, or the `additional_kwargs.tool_outputs` ChatOpenAI sends without one. */
export function hasUnfinishedHostedItem(message: unknown): boolean {
  const m = message as Loose;
  return (
    holdsUnfinished(replayedOutput(m)) || holdsUnfinished((m.additional_kwargs as Loose | undefined)?.tool_outputs)
  );
}

const hasEncryptedContent = (item: Loose): boolean =>
  typeof item.encrypted_content === "string" && item.encrypted_content !== "";

/** As its metadata records it (a streamed reply), or as the app says (`store`, `zdrEnabled`). */
const notStored = (m: Loose, store: boolean | undefined): boolean =>
  store === false || (m.response_metadata as Loose | undefined)?.store === false;

/** No status: a stream cut off before its end. */
const neverCompleted = (m: Loose): boolean => {
  const metadata = m.response_metadata as Loose | undefined;
  return madeBy(m, "responses-items") && metadata!.status === undefined;
};

export function isUnkeptOutputReasoning(message: unknown, item: unknown, store: boolean | undefined): boolean {
  const it = item as Item;
  return it.type === "reasoning" && !hasEncryptedContent(it) && notStored(message as Loose, store);
}

/** `unkept-reasoning-item`: a reasoning item held by id only, unkept (`store: false`) or of an uncompleted response. */
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
