/**
 * Reads of the signed and paired content blocks of Anthropic replies, as ChatAnthropic stores and sends them:
 * thinking blocks with their signatures, and server tools' `server_tool_use` blocks with their results.
 * Allocation-free: the clean check runs them for every AIMessage.
 */
import { roleOf, toolCallsOf } from "./message-view.js";
import { madeBy, modelOfReply } from "./reply-origin.js";

type Loose = Record<string, unknown>;
type Block = Loose & { type?: unknown };

const contentOf = (message: unknown): readonly unknown[] | undefined => {
  const content = (message as Loose | undefined)?.content;
  return Array.isArray(content) ? content : undefined;
};

const isBlock = (block: unknown): block is Block => typeof block === "object" && block !== null;

/** Whether `block` is a thinking or redacted_thinking block: what Anthropic signs. */
export const isThinkingBlock = (block: unknown): boolean =>
  isBlock(block) && (block.type === "thinking" || block.type === "redacted_thinking");

const nonEmpty = (value: unknown): boolean => typeof value === "string" && value !== "";

/** Whether a thinking block carries its signature: Anthropic rejects one without. */
export const isSigned = (block: Readonly<Record<string, unknown>>): boolean => nonEmpty(block.signature);

/**
 * Whether `block` of `message` is a thinking block cut off before its signature, or a redacted_thinking block
 * without its data (pattern R). A signature is empty where a stream stopped before its `signature_delta` (ChatAnthropic
 * keeps the empty one the block started with); a thinking block with none at all is cut off in an Anthropic reply,
 * and rejected wherever the history goes to Claude (`toClaude`), whoever made it; other models' thought parts
 * (Gemini's) need no signature elsewhere.
 */
export function isUnsignedThinking(message: unknown, block: unknown, toClaude: boolean): boolean {
  if (!isBlock(block)) return false;
  if (block.type === "redacted_thinking") return !nonEmpty(block.data);
  if (block.type !== "thinking" || isSigned(block)) return false;
  return block.signature === "" || toClaude || madeBy(message, "signed-thinking");
}

/** Whether the reply holds a thinking block cut off before its signature (pattern R). */
export function hasUnsignedThinking(message: unknown, toClaude: boolean): boolean {
  const content = contentOf(message);
  if (content === undefined) return false;
  for (let i = 0; i < content.length; i++) if (isUnsignedThinking(message, content[i], toClaude)) return true;
  return false;
}

/**
 * A model's name without what names one model several ways: an `initChatModel` `provider:` prefix, Bedrock's region
 * and vendor prefixes (`us.anthropic.`) and version suffix (`-v1:0`), a date snapshot (`-20250929`, Vertex's
 * `@20250929`), `-latest`, and a `-0` minor (`claude-sonnet-4-0` is `claude-sonnet-4-20250514`).
 */
export function baseModel(name: string): string {
  return name
    .toLowerCase()
    .replace(/^[a-z-]+:(?=[^.]*$)/, "")
    .replace(/^((us|eu|apac|global|us-gov)\.)?([a-z]+\.)?(?=claude|[a-z]+-)/, "")
    .replace(/-v\d+(:\d+)?$/, "")
    .replace(/[-@](\d{8}|latest)$/, "")
    .replace(/-0$/, "");
}

/**
 * Whether the reply holds thinking blocks that a model other than the one `base` names signed (pattern S; `base` is
 * `baseModel` of it). A reply that does not record its model is taken as that model's: nothing tells otherwise.
 */
export function hasForeignThinking(message: unknown, base: string): boolean {
  const content = contentOf(message);
  if (content === undefined || !content.some(isThinkingBlock)) return false;
  const origin = modelOfReply(message);
  return origin !== undefined && baseModel(origin) !== base;
}

/** Whether `block` is a server tool's use (Anthropic runs the tool itself: web search, web fetch, code execution). */
const isServerUse = (block: unknown): block is Block => isBlock(block) && block.type === "server_tool_use";

/** Whether `block` is a server tool's result (`web_search_tool_result`, `code_execution_tool_result`, …). */
function isServerResult(block: unknown): block is Block {
  if (!isBlock(block) || typeof block.type !== "string" || block.type === "tool_result") return false;
  return block.type.endsWith("_tool_result") && typeof block.tool_use_id === "string";
}

/** Whether `block` is a server tool's use or result, whose pairing must be read (pattern Q). */
export const isServerToolBlock = (block: unknown): boolean => isServerUse(block) || isServerResult(block);

/** Whether the reply holds a server tool's use or result, so its pairing must be read. */
export function hasServerToolBlocks(message: unknown): boolean {
  const content = contentOf(message);
  if (content === undefined) return false;
  for (let i = 0; i < content.length; i++) if (isServerUse(content[i]) || isServerResult(content[i])) return true;
  return false;
}

/** Whether `content` has a block `match` accepts in `[from, to)`. */
function holds(content: readonly unknown[] | undefined, match: (block: unknown) => boolean, from = 0, to = Infinity) {
  if (content === undefined) return false;
  for (let i = from; i < Math.min(to, content.length); i++) if (match(content[i])) return true;
  return false;
}

/**
 * The reply a continuation links to `messages[index]` in direction `step` (+1: the next, -1: the previous): a server
 * tool used next to a client tool completes in the reply that follows the client tool's results. So the earlier
 * reply calls client tools and only ToolMessages stand between the two: the repair answers every call there, and
 * never puts a user turn between the use and its result (as it would between two replies in a row, pattern K).
 */
function linkedReply(messages: readonly unknown[], index: number, step: 1 | -1): unknown {
  for (let i = index + step; i >= 0 && i < messages.length; i += step) {
    const role = roleOf(messages[i]);
    if (role === "tool") continue;
    if (role !== "ai") return undefined;
    const earlier = step === 1 ? messages[index] : messages[i];
    return toolCallsOf(earlier).length > 0 ? messages[i] : undefined;
  }
  return undefined;
}

/** Whether the API paused the reply's turn (`stop_reason: "pause_turn"`), to be sent back as it is and continued. */
export function isPausedTurn(message: unknown): boolean {
  return ((message as Loose | undefined)?.response_metadata as Loose | undefined)?.stop_reason === "pause_turn";
}

/**
 * Whether a model request that ends after `messages[index]` has the API run the reply's open server tool uses: it
 * calls client tools and nothing but their results follow it (the repair answers every call), or it is last and its
 * turn was paused.
 */
function runsPendingUses(messages: readonly unknown[], index: number): boolean {
  for (let i = index + 1; i < messages.length; i++) if (roleOf(messages[i]) !== "tool") return false;
  const reply = messages[index];
  return toolCallsOf(reply).length > 0 || (index === messages.length - 1 && isPausedTurn(reply));
}

/**
 * The server-tool blocks of `content`, the content of the reply at `messages[index]`, that lack their other half
 * (pattern Q): a use whose result is neither after it in the reply nor in the reply its continuation links (see
 * `linkedReply`), unless the history ends there open (`pendingAtEnd`: a request, see `runsPendingUses`); a result
 * whose use is neither before it nor in the reply before. Visits each by its position in `content`; `visit` returns
 * true to stop.
 */
export function visitUnpairedServerBlocks(
  content: readonly unknown[],
  messages: readonly unknown[],
  index: number,
  pendingAtEnd: boolean,
  visit: (position: number) => boolean,
): boolean {
  const pending = pendingAtEnd && runsPendingUses(messages, index);
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (isServerUse(block)) {
      const answers = (b: unknown) => isServerResult(b) && b.tool_use_id === block.id;
      if (pending || holds(content, answers, i + 1) || holds(contentOf(linkedReply(messages, index, 1)), answers))
        continue;
    } else if (isServerResult(block)) {
      const makes = (b: unknown) => isServerUse(b) && b.id === block.tool_use_id;
      if (holds(content, makes, 0, i) || holds(contentOf(linkedReply(messages, index, -1)), makes)) continue;
    } else {
      continue;
    }
    if (visit(i)) return true;
  }
  return false;
}
