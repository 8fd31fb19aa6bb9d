/**
 * What one pattern is: its description, where it applies, and its rule, in one unit (`patterns/<kind>.ts`). The
 * engine runs each kind of rule at one place of its walk over a history, for the clean check and the rebuild alike:
 * - a {@link BoundaryRule} between two turns (what a provider wants between them: A, C, J, K, Z);
 * - a {@link MessageRule} on a message sent as a copy (W, X, Y);
 * - a {@link ReplyRule} on the blocks and items of a reply (M, P, Q, R, S, T, U, V);
 * - a {@link RemovalRule} on a message that no provider takes at all (H, L).
 * The rest (B, B2, B3, D, E, F, G, I, N) are the pairing of calls and results itself: their rules are the functions
 * their units export, which the pairing calls.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { MessageRole } from "../messages/message-view.js";
import type { BridgeRole } from "./synthetic.js";
import type { MarkerTexts } from "./markers.js";

/**
 * Where a pattern is repaired:
 * - `"anywhere"`: what every provider rejects, wherever it is in the history;
 * - `"leftovers"`: what a cancelled or failed run left behind, closed for every provider when new input follows
 *   (the end of a run that stopped midway), and a break the repair itself made (a turn whose calls it answered, a
 *   message it removed);
 * - `"provider"`: a rule of some providers only, repaired under the `provider` option, or by the middleware for the
 *   provider it calls (see `docs/providers.md`);
 * - `"model"`: a rule of the model the history goes to, repaired only where that model is known: the `model`
 *   option, or the middleware for the model it calls.
 */
export type Scope = "anywhere" | "leftovers" | "provider" | "model";

/** What came last in the conversation, as far as turn-taking goes. System and unknown roles are transparent. */
export type TurnState = "none" | "human" | "ai" | "tools";

/** Where a {@link BoundaryRule} inserts: the ids it anchors its message to. */
export interface BoundaryPlace {
  /** The user turn the conversation is in (the last HumanMessage, or a marker put in for one), or "". */
  userTurn: string;
  /** The last reply, or "". */
  lastReply: string;
  /** The message next to the boundary: the one after it, or, at the end, the one before. */
  next: string;
}

/**
 * A rule of turn-taking: after `after`, before `before`, a provider wants another turn first, which the repair
 * inserts. `before` is a user turn (`"human"`, also the closed end, where the next user turn will come), a reply
 * (`"ai"`) or the end of a model request (`"request-end"`).
 */
export interface BoundaryRule {
  after: TurnState;
  before: "human" | "ai" | "request-end";
  /** Whether `last`, the message before the boundary, is let through as it is. */
  exempt?(last: unknown): boolean;
  /** The message put in between, and the turn it stands for. */
  insert(place: BoundaryPlace, texts: Readonly<MarkerTexts>, bridgeRole: BridgeRole): BaseMessage;
  stands: "human" | "ai";
}

/**
 * A rule on one message, sent as a copy: with a marker text in place of none (`text`), or as a user turn
 * (`sendAs`, which the rules of that role then read too).
 */
export interface MessageRule {
  role: Extract<MessageRole, "human" | "tool" | "system">;
  /** Whether the rule changes `message`, coming after `prev`. Allocation-free: it runs on every such message. */
  finds(message: unknown, prev: TurnState): boolean;
  text?: keyof MarkerTexts;
  sendAs?: "human";
}

/**
 * Where a reply stands, for the reply rules that depend on it. The clean check reuses one object for every reply.
 */
export interface ReplyPlace {
  messages: readonly unknown[];
  index: number;
  /** The model the history goes to, when known (its `baseModel`). */
  model: string | undefined;
  /** Whether the history goes to a Claude model, which rejects every thinking block without a signature. */
  toClaude: boolean;
  /** Whether the Responses API keeps the responses the history replays; `false`: it keeps none. */
  store: boolean | undefined;
  /** Whether the history ends open (a model request): the last reply's pending server tool uses stay. */
  openEnd: boolean;
  /** Where the current turn starts (after the last HumanMessage); the history's length when new input follows. */
  currentTurn: number;
  /** The ids the calls of renamed replies go out with, by position (see `planCallIds`). */
  renamed: ReadonlyMap<number, readonly string[]> | undefined;
}

/**
 * A part of a reply, besides its content blocks, that a reply rule reads: `tool_call_chunks`, the replayed Responses
 * `output`, `additional_kwargs.reasoning` or `.tool_outputs`, or its place in the current turn.
 */
export type ReplyPart = "tool_call_chunks" | "output" | "reasoning" | "tool_outputs" | "current-turn";

/**
 * A rule on the blocks or items of a stored AIMessage: it finds them and writes a copy without them (or with what
 * the provider needs added). A block that must go is dropped whole; every other block stays as stored, in its
 * order, so signed blocks go out byte-identical.
 */
export interface ReplyRule {
  /**
   * Where the rule runs among the reply rules, each on the copy the last one wrote: a rule that drops items runs
   * before one that reads what is left (a reasoning item a dropped hosted-tool item leaves lone goes too).
   */
  order: number;
  /** The content block types the rule reads: exact types, and `*_suffix` for every type that ends so. */
  blockTypes?: readonly string[];
  /** Of the blocks of those types, whether the rule reads `block` (all of them when not given). Allocation-free. */
  readsBlock?(block: Readonly<Record<string, unknown>>, at: ReplyPlace): boolean;
  /** What else of a reply the rule reads: where a reply holds none of these (nor a block it reads), it is skipped. */
  readsParts?: readonly ReplyPart[];
  /** Whether the rule changes `message`. Allocation-free for a reply it leaves alone. */
  finds(message: unknown, at: ReplyPlace): boolean;
  /** The copy of `message` it writes. */
  fix(message: unknown, at: ReplyPlace): unknown;
}

/** A rule that removes a message no provider takes (reported whole). */
export interface RemovalRule {
  role: MessageRole;
  /** Whether `message` (with `callCount` calls to answer, for a reply) goes. Allocation-free. */
  removes(message: unknown, callCount: number): boolean;
}

/** One pattern as users see it: its descriptive name (`Repair.kind`), the shape it repairs, what the repair does, and where. */
export interface Pattern {
  kind: string;
  /** The shape in one line, as the README's table has it. */
  summary: string;
  shape: string;
  repair: string;
  /** Where the repair applies; a pattern in two scopes says in `shape` which occurrences are which. */
  applies: readonly Scope[];
}

/** One pattern's unit: its description and its rule. */
export interface PatternUnit extends Pattern {
  code: string;
  /**
   * For a pattern that removes messages: whether removing one leaves its neighbours side by side as they were (a
   * duplicate result, a RemoveMessage), so no turn-taking break comes of it. Otherwise the turn that ends there is
   * one the repair made, closed under every rule.
   */
  keepsNeighbours?: true;
  boundary?: BoundaryRule;
  message?: MessageRule;
  reply?: ReplyRule;
  removal?: RemovalRule;
}

/** Declares a pattern's unit, keeping its literal types (its code, kind and scopes). */
export const definePattern = <const U extends PatternUnit>(unit: U): U => Object.freeze(unit);
