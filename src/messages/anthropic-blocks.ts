// Signed and paired blocks of Anthropic replies. Allocation-free: the clean check runs them for every AIMessage.
import { roleOf, toolCallsOf } from "./message-view.js";
import { madeBy, modelOfReply } from "./reply-origin.js";

type Loose = Record<string, unknown>;
type Block = Loose & { type?: unknown };

const contentOf = (message: unknown): readonly unknown[] | undefined => {
  const content = (message as Loose | undefined)?.content;
  return Array.isArray(content) ? content : undefined;
};

const isBlock = (block: unknown): block is Block => typeof block === "object" && block !== null;

/** What Anthropic signs. */
export const isThinkingBlock = (block: unknown): boolean =>
  isBlock(block) && (block.type === "thinking" || block.type === "redacted_thinking");

const nonEmpty = (value: unknown): boolean => typeof value === "string" && value !== "";

/** Whether a thinking block carries its signature: Anthropic rejects one without. */
export const isSigned = (block: Readonly<Record<string, unknown>>): boolean => nonEmpty(block.signature);

/**
 * `unsigned-thinking-block`: a stream stopped before `signature_delta` leaves an empty signature; Claude rejects a
 * thinking block without one wherever it comes from, other models' thought parts need none elsewhere.
 */
export function isUnsignedThinking(message: unknown, block: unknown, toClaude: boolean): boolean {
  if (!isBlock(block)) return false;
  if (block.type === "redacted_thinking") return !nonEmpty(block.data);
  if (block.type !== "thinking" || isSigned(block)) return false;
  return block.signature === "" || toClaude || madeBy(message, "signed-thinking");
}

export function hasUnsignedThinking(message: unknown, toClaude: boolean): boolean {
  const content = contentOf(message);
  if (content === undefined) return false;
  for (let i = 0; i < content.length; i++) if (isUnsignedThinking(message, content[i], toClaude)) return true;
  return false;
}

/** One name per model: no `provider:` prefix, Bedrock region and version, date snapshot, `-latest` or `-0` minor. */
export function baseModel(name: string): string {
  return name
    .toLowerCase()
    .replace(/^[a-z-]+:(?=[^.]*$)/, "")
    .replace(/^((us|eu|apac|global|us-gov)\.)?([a-z]+\.)?(?=claude|[a-z]+-)/, "")
    .replace(/-v\d+(:\d+)?$/, "")
    .replace(/[-@](\d{8}|latest)$/, "")
    .replace(/-0$/, "");
}

/** `foreign-thinking-block`: a reply that does not record its model is taken as that model's. */
export function hasForeignThinking(message: unknown, base: string): boolean {
  const content = contentOf(message);
  if (content === undefined || !content.some(isThinkingBlock)) return false;
  const origin = modelOfReply(message);
  return origin !== undefined && baseModel(origin) !== base;
}

/** Anthropic runs server tools itself (web search, web fetch, code execution). */
const isServerUse = (block: unknown): block is Block => isBlock(block) && block.type === "server_tool_use";

function isServerResult(block: unknown): block is Block {
  if (!isBlock(block) || typeof block.type !== "string" || block.type === "tool_result") return false;
  return block.type.endsWith("_tool_result") && typeof block.tool_use_id === "string";
}

/** `unpaired-server-tool-block` reads their pairing. */
export const isServerToolBlock = (block: unknown): boolean => isServerUse(block) || isServerResult(block);

export function hasServerToolBlocks(message: unknown): boolean {
  const content = contentOf(message);
  if (content === undefined) return false;
  for (let i = 0; i < content.length; i++) if (isServerUse(content[i]) || isServerResult(content[i])) return true;
  return false;
}

function holds(content: readonly unknown[] | undefined, match: (block: unknown) => boolean, from = 0, to = Infinity) {
  if (content === undefined) return false;
  for (let i = from; i < Math.min(to, content.length); i++) if (match(content[i])) return true;
  return false;
}

/**
 * A server tool used next to a client tool completes in the reply after the client tool's results, so the repair
 * never puts a user turn between the use and its result (as it would for `consecutive-replies`).
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

/** `stop_reason: "pause_turn"`: sent back as it is and continued. */
export function isPausedTurn(message: unknown): boolean {
  return ((message as Loose | undefined)?.response_metadata as Loose | undefined)?.stop_reason === "pause_turn";
}

/** Whether the API runs the reply's open server tool uses when a request ends after it. */
function runsPendingUses(messages: readonly unknown[], index: number): boolean {
  for (let i = index + 1; i < messages.length; i++) if (roleOf(messages[i]) !== "tool") return false;
  const reply = messages[index];
  return toolCallsOf(reply).length > 0 || (index === messages.length - 1 && isPausedTurn(reply));
}

/** `unpaired-server-tool-block`: a use without its result (unless the history ends open there), or the reverse. */
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
