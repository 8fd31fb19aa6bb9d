/**
 * What the repair takes out of a stored AIMessage, block by block, or adds to it (patterns M, P, Q, R, S, T, U,
 * V): each rule finds its blocks in a reply and writes a copy without them (T: with the documented skip
 * signature). A block that must go is dropped whole; every other block stays as stored, in its order, so signed
 * thinking blocks go out byte-identical. The rules run in this order, each on the copy the last one wrote: a
 * reasoning item a dropped hosted-tool item leaves lone goes too.
 */
import {
  hasForeignThinking,
  hasServerToolBlocks,
  hasUnsignedThinking,
  isThinkingBlock,
  isUnsignedThinking,
  visitUnpairedServerBlocks,
} from "../messages/anthropic-blocks.js";
import { GEMINI_SIGNATURES_KEY, SKIP_SIGNATURE, unsignedFirstCall } from "../messages/gemini-signatures.js";
import { hasStreamLeftovers, isStreamOnlyBlock } from "../messages/message-view.js";
import {
  hasLoneReasoningItem,
  hasUnfinishedHostedItem,
  hasUnkeptReasoning,
  isLoneReasoningItem,
  isUnfinishedHostedItem,
  isUnkeptOutputReasoning,
  replayedOutput,
} from "../messages/responses-items.js";
import type { PatternId } from "./patterns.js";
import { replyWith } from "./rewrite.js";

type Loose = Record<string, unknown>;

/**
 * Where a reply stands, for the rules that depend on it. The clean check reuses one object for every reply.
 * @internal
 */
export interface ReplyPlace {
  messages: readonly unknown[];
  index: number;
  /** The model the history goes to, when known (its `baseModel`): another model's thinking blocks go (pattern S). */
  model: string | undefined;
  /** Whether the history goes to a Claude model, which rejects every thinking block without a signature (R). */
  toClaude: boolean;
  /** Whether the Responses API keeps the responses the history replays; `false`: their reasoning by id goes (V). */
  store: boolean | undefined;
  /** Whether the history ends open (a model request): the last reply's pending server tool uses stay (pattern Q). */
  openEnd: boolean;
  /** Whether Gemini's rules apply: the first call of each reply of the current turn needs a signature (pattern T). */
  signing: boolean;
  /** Where the current turn starts (after the last HumanMessage); the history's length when new input follows. */
  currentTurn: number;
  /** The ids the calls of renamed replies go out with, by position (see `planCallIds`): a signature goes there. */
  renamed: ReadonlyMap<number, readonly string[]> | undefined;
}

interface ReplyRule {
  code: PatternId;
  /** Whether the rule changes `message`. Allocation-free for a reply it leaves alone. */
  finds(message: unknown, at: ReplyPlace): boolean;
  /** The copy of `message` it writes. */
  fix(message: unknown, at: ReplyPlace): unknown;
}

const contentOf = (m: unknown) => (m as Loose).content as unknown[];
/** A copy of `m` with the content blocks `keep` keeps (a text content is kept whole). */
const withContent = (m: unknown, keep: (block: unknown, i: number) => boolean) => {
  const content = (m as Loose).content;
  return replyWith(m, { content: Array.isArray(content) ? content.filter(keep) : content });
};

/**
 * A copy of `m` without the replayed output items `drop` picks, and without the reasoning item `additional_kwargs`
 * holds when it is one of them (ChatOpenAI sends that one when the output is left empty).
 */
function withoutOutputItems(m: unknown, drop: (output: readonly unknown[], i: number) => boolean): unknown {
  const metadata = (m as Loose).response_metadata as Loose;
  const output = metadata.output as unknown[];
  const dropped = new Set(output.filter((_, i) => drop(output, i)).map((item) => (item as Loose).id));
  let kwargs = (m as Loose).additional_kwargs as Loose | undefined;
  const kept = (kwargs?.reasoning as Loose | undefined)?.id;
  if (kwargs !== undefined && typeof kept === "string" && dropped.has(kept)) {
    const { reasoning: _dropped, ...rest } = kwargs;
    kwargs = rest;
  }
  return replyWith(m, {
    response_metadata: { ...metadata, output: output.filter((_, i) => !drop(output, i)) },
    additional_kwargs: kwargs,
  });
}

const unpairedServerBlocks = (m: unknown, at: ReplyPlace): Set<number> => {
  const positions = new Set<number>();
  visitUnpairedServerBlocks(contentOf(m), at.messages, at.index, at.openEnd, (i) => (positions.add(i), false));
  return positions;
};

/** The rules, in the order they run. */
const REPLY_RULES: readonly ReplyRule[] = [
  {
    code: "M",
    finds: hasStreamLeftovers,
    fix: (m) => withContent(m, (block) => !isStreamOnlyBlock(block)),
  },
  {
    code: "Q",
    finds: (m, at) =>
      hasServerToolBlocks(m) && visitUnpairedServerBlocks(contentOf(m), at.messages, at.index, at.openEnd, () => true),
    fix: (m, at) => {
      const unpaired = unpairedServerBlocks(m, at);
      // A streamed use's input came as input_json_delta blocks of its index: they go with it.
      const streamed = new Set<unknown>(
        [...unpaired].map((i) => (contentOf(m)[i] as Loose).index).filter((x) => x !== undefined),
      );
      return withContent(m, (block, i) => !unpaired.has(i) && !(isStreamOnlyBlock(block) && streamed.has(block.index)));
    },
  },
  {
    code: "R",
    finds: (m, at) => hasUnsignedThinking(m, at.toClaude),
    fix: (m, at) => withContent(m, (block) => !isUnsignedThinking(m, block, at.toClaude)),
  },
  {
    code: "S",
    finds: (m, at) => at.model !== undefined && hasForeignThinking(m, at.model),
    fix: (m) => withContent(m, (block) => !isThinkingBlock(block)),
  },
  {
    code: "U",
    finds: hasUnfinishedHostedItem,
    fix: (m) => {
      const kwargs = (m as Loose).additional_kwargs as Loose | undefined;
      const outputs = kwargs?.tool_outputs;
      const copy = replayedOutput(m) ? withoutOutputItems(m, (output, i) => isUnfinishedHostedItem(output[i])) : m;
      if (!Array.isArray(outputs) || !outputs.some(isUnfinishedHostedItem)) return copy;
      const kept = outputs.filter((item) => !isUnfinishedHostedItem(item));
      return replyWith(copy, { additional_kwargs: { ...(copy as Loose).additional_kwargs!, tool_outputs: kept } });
    },
  },
  {
    code: "V",
    finds: (m, at) => hasUnkeptReasoning(m, at.store),
    fix: (m, at) => {
      if (replayedOutput(m)) {
        return withoutOutputItems(m, (output, i) => isUnkeptOutputReasoning(m, output[i], at.store));
      }
      const { reasoning: _unkept, ...kwargs } = (m as Loose).additional_kwargs as Loose;
      return replyWith(m, { additional_kwargs: kwargs });
    },
  },
  {
    code: "P",
    finds: hasLoneReasoningItem,
    fix: (m) => withoutOutputItems(m, isLoneReasoningItem),
  },
  {
    code: "T",
    finds: (m, at) => at.signing && at.index >= at.currentTurn && unsignedFirstCall(m) !== undefined,
    fix: (m, at) => {
      const kwargs = ((m as Loose).additional_kwargs ?? {}) as Loose;
      // Keyed by the id the call goes out with: a call renamed from an id several calls share keeps no key of its own.
      const id = at.renamed?.get(at.index)?.[0] ?? unsignedFirstCall(m)!;
      const signatures = { ...(kwargs[GEMINI_SIGNATURES_KEY] as Loose | undefined), [id]: SKIP_SIGNATURE };
      return replyWith(m, { additional_kwargs: { ...kwargs, [GEMINI_SIGNATURES_KEY]: signatures } });
    },
  },
];

/** A stored AIMessage sent as a copy the reply rules wrote, and the patterns that changed it. */
export interface CleanedReply {
  message: unknown;
  codes: PatternId[];
}

/** Whether no reply rule reads `block` as it stands (M, Q, R and S read the others). A switch: it runs per block. */
function isPlainBlock(block: Loose, model: string | undefined): boolean {
  switch (block.type) {
    case "text":
    case "tool_use":
    case "tool_call":
    case "image":
    case "image_url":
    case "document":
    case "reasoning":
      return true;
    case "thinking":
      return model === undefined && typeof block.signature === "string" && block.signature !== "";
    default:
      return false;
  }
}

/**
 * Whether some reply rule may change `message`, in one pass: a block a rule reads (a stream's, a server tool's, a
 * thinking block not signed as stored, any thinking block when a model is named), stream chunks, stored Responses
 * output or items, or Gemini's rules on the current turn. The clean check runs this for every reply of every read;
 * most replies hold none of these, and the rules are then skipped.
 */
function mayNeedCleaning(message: unknown, at: ReplyPlace): boolean {
  const m = message as Loose;
  const content = m.content;
  if (Array.isArray(content)) {
    for (let i = 0; i < content.length; i++) {
      const block = content[i] as Loose | null;
      if (
        typeof block === "object" &&
        block !== null &&
        typeof block.type === "string" &&
        !isPlainBlock(block, at.model)
      )
        return true;
    }
  }
  if (Array.isArray(m.tool_call_chunks) && m.tool_call_chunks.length > 0) return true;
  if (Array.isArray((m.response_metadata as Loose | undefined)?.output)) return true;
  const kwargs = m.additional_kwargs as Loose | undefined;
  if (kwargs !== undefined && (kwargs.reasoning !== undefined || kwargs.tool_outputs !== undefined)) return true;
  return at.signing && at.index >= at.currentTurn;
}

/** Whether some reply rule changes `message`. Allocation-free when none does: the clean check runs it for every reply. */
export function needsCleaning(message: unknown, at: ReplyPlace): boolean {
  if (!mayNeedCleaning(message, at)) return false;
  for (const rule of REPLY_RULES) if (rule.finds(message, at)) return true;
  return false;
}

/** The copy of the AIMessage the reply rules write, or undefined when none changes it. */
export function cleanReply(message: unknown, at: ReplyPlace): CleanedReply | undefined {
  if (!mayNeedCleaning(message, at)) return undefined;
  let current = message;
  let codes: PatternId[] | undefined;
  for (const rule of REPLY_RULES) {
    if (!rule.finds(current, at)) continue;
    current = rule.fix(current, at);
    (codes ??= []).push(rule.code);
  }
  return codes === undefined ? undefined : { message: current, codes };
}
