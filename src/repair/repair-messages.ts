import type { BaseMessage } from "@langchain/core/messages";
import { isMessageList, roleOf, toolCallsOf } from "../messages/message-view.js";
import { planCallIds } from "./call-ids.js";
import { emit } from "./emit.js";
import { answerEveryCall } from "./answer-calls.js";
import { resolveMarkers, type MarkerOption } from "./markers.js";
import type { Repair } from "./patterns.js";
import { segment } from "./segment.js";
import type { CleanedReply } from "./reply-cleaning.js";
import { assertModelName, assertOneOf, assertStore } from "../options.js";
import { goesToClaude, PROVIDER_RULE_NAMES, providerRulesOf, type ProviderRules } from "./provider-rules.js";
import { BRIDGE_ROLES, type BridgeRole } from "./synthetic.js";
import { findTailStart } from "./tail.js";
import { endsOpen, isWellFormed, replyPlace, type Closing } from "./well-formed.js";

/**
 * How the end of the history is treated.
 * - `"repair"`: the history is what a run that stopped midway left, and a new
 *   HumanMessage comes next, so a trailing HumanMessage gets a marker reply,
 *   unanswered calls get placeholders and trailing tool results get a closing
 *   AIMessage, for every provider.
 * - `"finished"`: the history is a finished run's and a new HumanMessage comes
 *   next: calls left open get placeholders and a closing AIMessage, as with
 *   `"repair"`; a HumanMessage or tool results the run ended on are closed only
 *   under the rules of `provider` (a tool that ends the run leaves its results
 *   last on purpose).
 * - `"preserve"`: a run may still complete the tail (see `findTailStart`), so
 *   it is left exactly as it is; only what comes before it is repaired. A
 *   history with no such tail is repaired as with `"repair"`.
 * - `"request"`: the history is about to be sent to the model, so it may end in
 *   the new input (a HumanMessage) or in tool results. Unanswered calls get
 *   placeholders as with `"repair"`; after the last message only a marker user
 *   turn is added, where the history ends on a reply the provider takes no
 *   prefill after (pattern Z), or the repair made that end.
 */
export type TailMode = "repair" | "finished" | "preserve" | "request";

/** Options of {@link repairMessages}. */
export interface RepairOptions {
  /** Default `"repair"`. */
  tail?: TailMode;
  /**
   * Whose rules to apply besides what every provider rejects: the user first (pattern J), no two replies in a row
   * (K), no two user turns in a row (A), a reply after tool results (C), no empty result or user turn (W, X), no
   * SystemMessage mid-history (Y), no request ending on a reply (Z), Gemini's signatures on the current turn's
   * calls (T). `"bedrock"` for an app on Bedrock, `"strictest"` for every provider's at once; see
   * `PROVIDER_RULES`. A broken run's leftovers are closed for every provider whatever this says.
   * @default undefined: only what every provider rejects
   */
  provider?: ProviderRules;
  /**
   * The model the history goes to (`"claude-sonnet-4-5"`): thinking blocks another model signed are dropped for it
   * (pattern S), as Anthropic rejects their signatures; a Claude model before 4.6 takes a prefill (pattern Z is not
   * applied for it under Anthropic's or Bedrock's rules). A date snapshot, `-latest` or a Bedrock id names one model.
   * @default undefined: no thinking block is taken for another model's
   */
  model?: string;
  /**
   * Whether the OpenAI Responses API keeps the responses the history replays. `false` (`store: false`, ChatOpenAI's
   * `zdrEnabled`): a reasoning item sent by its id only (no `encrypted_content`) is one the API never kept, and is
   * dropped (pattern V). A reply streamed from such a response records it itself.
   * @default undefined: as each reply records it
   */
  store?: boolean;
  /** Texts of inserted messages: `"en"` (default), `"ko"`, or custom texts. */
  markers?: MarkerOption;
  /**
   * Role of the marker between two HumanMessages (pattern A). Default `"ai"`.
   * `"system"` (the originating design) is rejected mid-history by Anthropic and Gemini.
   */
  bridgeRole?: BridgeRole;
  /**
   * Finished tool results held outside the list (a checkpoint's `pendingWrites`).
   * Unless the tail is preserved, they answer the last turn's unanswered calls
   * instead of placeholders (pattern N). Used ones are listed in `usedRecovered`.
   */
  recoveredResults?: readonly unknown[];
}

/**
 * What {@link repairMessages} returns. `T` is the input's message type; the messages the repair inserts are
 * `@langchain/core` messages, whatever the input holds.
 */
export interface RepairResult<T = unknown> {
  /** The repaired list; the input array itself when nothing needed repair. */
  messages: (T | BaseMessage)[];
  /** Every change made, in order. Empty when `messages` is the input. */
  repairs: Repair[];
  /** The entries of `recoveredResults` the repair put into the list (the objects given), so their holder can drop them. */
  usedRecovered: unknown[];
}

const TAIL_MODES: readonly TailMode[] = ["repair", "finished", "preserve", "request"];

/** `value`, or `fallback` when it is not given; throws on anything outside `allowed`. */
function optionOrDefault<T>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  assertOneOf(name, value, allowed);
  return value;
}

/** For each position, how many messages before it `removals` removed. */
function countRemovedBefore(removals: readonly Repair[], length: number): Int32Array {
  const counts = new Int32Array(length + 1);
  for (const { index } of removals) counts[index + 1] = 1;
  for (let i = 0; i < length; i++) counts[i + 1] = counts[i + 1]! + counts[i]!;
  return counts;
}

/**
 * Repairs a chat history so that every provider accepts it (the rules in the
 * README): every tool call answered right after its AIMessage, no orphan or
 * duplicate result, no empty reply, what a broken run left closed; and, for
 * the providers that need it (`provider`), the user first and roles alternating.
 * A history that breaks no rule that applies comes back as it is.
 *
 * Pure: the input and its messages are never mutated, inserted messages get
 * deterministic ids, and repairing the output again changes nothing. A
 * history that needs no repair, and anything that is not a list of messages,
 * is returned as the same object with no repairs. Never throws on odd input;
 * throws a `TypeError` on invalid options.
 */
export function repairMessages<T>(messages: readonly T[], options?: RepairOptions): RepairResult<T>;
export function repairMessages(messages: unknown, options?: RepairOptions): RepairResult;
export function repairMessages(messages: unknown, options: RepairOptions = {}): RepairResult {
  const tail = optionOrDefault("tail", options.tail, TAIL_MODES, "repair");
  const bridgeRole = optionOrDefault("bridgeRole", options.bridgeRole, BRIDGE_ROLES, "ai");
  if (options.provider !== undefined) assertOneOf("provider", options.provider, PROVIDER_RULE_NAMES);
  assertModelName(options.model);
  if (options.store !== undefined) assertStore(options.store);
  const markers = resolveMarkers(options.markers);
  const unchanged = { messages: messages as unknown[], repairs: [], usedRecovered: [] };
  if (!Array.isArray(messages) || messages.length === 0) return unchanged;

  const tailStart = tail === "preserve" ? findTailStart(messages) : messages.length;
  // "request" answers every call like "repair" but adds no reply after the end: the model is about to give it.
  // Without a tail a resumed run has nothing to complete, so "preserve" closes the end as "repair" does.
  const end: Closing["end"] =
    tail === "repair" || (tail === "preserve" && tailStart === messages.length)
      ? "leftovers"
      : tail === "finished"
        ? "finished"
        : "open";
  const closing: Closing = {
    rules: providerRulesOf(options.provider, options.model),
    model: options.model,
    toClaude: goesToClaude(options.provider, options.model),
    store: options.store,
    end,
  };
  // One walk over a healthy history: the clean check reads non-messages as "other", and a clean
  // list comes back as is whether or not it holds messages, so only a rebuild needs isMessageList.
  const mustRebuild = end === "leftovers" && tailStart === messages.length && endsOpen(messages);
  if ((!mustRebuild && isWellFormed(messages, tailStart, closing)) || !isMessageList(messages)) return unchanged;

  const repairs: Repair[] = [];
  const usedRecovered: unknown[] = [];
  const calls = messages.map((m) => (roleOf(m) === "ai" ? toolCallsOf(m) : undefined));
  const renamed = planCallIds(messages, calls, tailStart);
  const cleaned = new Map<number, CleanedReply>();
  const place = { ...replyPlace(messages, tailStart, closing), renamed };
  const units = segment(messages, tailStart, calls, renamed, place, cleaned, repairs);
  const last = units[units.length - 1];
  const answered = units.map((unit) => {
    if (typeof unit === "number") return unit;
    // Stranded results belong to the pending tasks of the checkpoint, so only to its last turn.
    const recovered = tail !== "preserve" && unit === last ? (options.recoveredResults ?? []) : [];
    return { turn: unit.turn, answers: answerEveryCall(unit.turn, markers, recovered, usedRecovered) };
  });
  // So far `repairs` holds the removals only: with none, every result keeps its rank.
  const removedBefore = repairs.length > 0 ? countRemovedBefore(repairs, messages.length) : undefined;
  const out = emit(answered, { messages, tailStart, ...closing, markers, bridgeRole, removedBefore, cleaned }, repairs);
  return { messages: out, repairs, usedRecovered };
}
