// One pattern's unit: description, scope and rule. How the engine runs each kind of rule: docs/internals.md.
import type { BaseMessage } from "@langchain/core/messages";
import type { MessageRole, ToolCallRef } from "../../messages/message-view.js";
import type { KeptResult, ToolResult, Turn } from "../walk/turn.js";
import type { BridgeRole } from "../synthetic/inserted-messages.js";
import type { MarkerTexts } from "../synthetic/markers.js";

/** Where a pattern is repaired (docs/internals.md). */
export type Scope = "anywhere" | "leftovers" | "provider" | "model";

/** What came last, as far as turn-taking goes; system and unknown roles are transparent. */
export type TurnState = "none" | "human" | "ai" | "tools";

/** Ids around a boundary, which the inserted message's id is derived from. */
export interface BoundaryContext {
  /** The last HumanMessage, or a marker put in for one, or "". */
  userTurn: string;
  lastReply: string;
  /** The message after the boundary, or at the end the one before. */
  next: string;
}

/**
 * After `after`, before `before`, a provider wants another turn first, which the repair inserts: a reply before a
 * user turn, a user turn before a reply or the end of a request.
 */
export interface BoundaryRule {
  after: TurnState;
  before: "human" | "ai" | "request";
  exempt?(last: unknown): boolean;
  insert(around: BoundaryContext, texts: Readonly<MarkerTexts>, bridgeRole: BridgeRole): BaseMessage;
}

/** A rule on one message, sent as a copy with a marker text (`text`) or as a user turn (`sendAs`). */
export interface MessageRule {
  role: Extract<MessageRole, "human" | "tool" | "system">;
  /** Allocation-free: it runs on every such message. */
  finds(message: unknown, prev: TurnState): boolean;
  text?: keyof MarkerTexts;
  sendAs?: "human";
}

/** The clean check reuses one object for every reply. */
export interface ReplyContext {
  messages: readonly unknown[];
  index: number;
  /** Its `baseModel`, when known. */
  model: string | undefined;
  /** Claude rejects every thinking block without a signature. */
  toClaude: boolean;
  /** `false`: the Responses API keeps none of the responses the history replays. */
  store: boolean | undefined;
  /** An open tail (a model request) keeps the last reply's pending server tool uses. */
  openTail: boolean;
  /** After the last HumanMessage; the history's length when new input follows. */
  lastTurn: number;
  /** The ids the calls of renamed replies go out with, by position (see `planCallIds`). */
  renamed: ReadonlyMap<number, readonly string[]> | undefined;
}

/** A part of a reply besides its content blocks that a reply rule reads. */
export type ReplyPart = "tool_call_chunks" | "output" | "reasoning" | "tool_outputs" | "last-turn";

/** A rule on the blocks or items of a reply; dropped blocks go whole, the rest stay byte-identical. */
export interface ReplyRule {
  /** Exact types, and `*_suffix` for every type that ends so. */
  blockTypes?: readonly string[];
  /** All blocks of `blockTypes` when not given. Allocation-free. */
  readsBlock?(block: Readonly<Record<string, unknown>>, at: ReplyContext): boolean;
  /** A reply with none of these (nor a block it reads) is skipped. */
  readsParts?: readonly ReplyPart[];
  /** Allocation-free for a reply it leaves alone. */
  finds(message: unknown, at: ReplyContext): boolean;
  fix(message: unknown, at: ReplyContext): unknown;
}

/** Removes a message no provider takes (reported whole). */
export interface RemovalRule {
  role: MessageRole;
  /** Allocation-free. */
  removes(message: unknown, callCount: number): boolean;
}

/**
 * The rules of how results pair with calls, each run at its step of both walks (the clean check and the rebuild).
 * One unit holds each step; the placeholder step has one unit per kind of unanswered call.
 */
export interface PairingSteps {
  /** A message of the run's input taken out before the pairing. */
  input: { removes(message: unknown, index: number, inputStart: number): boolean };
  /** The slot of `calls`, from `from` on, that a result answering `id` takes; -1 when none declared it. */
  owner: { slotWithId(calls: readonly unknown[], id: string, from: number): number };
  /** The slot of its owner turn a result fills, found by the owner rule's `slotWithId`; -1 when it is a second one. */
  slot: { slotFor(turn: Turn, id: string, message: unknown, slotWithId: PairingSteps["owner"]["slotWithId"]): number };
  /** A result at `at` that does not come right after `previous`, the message before it in its turn, is moved. */
  order: { moved(at: number, previous: number): boolean };
  /** A reply that puts a call on the wire its `tool_calls` does not hold (`hides`), read on a turn (`outside`). */
  calls: { hides(message: unknown): boolean; outside(turn: Turn): boolean };
  /** The ids calls go out with, by position, where some must change; `keeps` reads one id in the clean check. */
  ids: {
    keeps(id: string): boolean;
    plan(
      messages: readonly unknown[],
      calls: readonly (readonly ToolCallRef[] | undefined)[],
      tailStart: number,
    ): ReadonlyMap<number, readonly string[]>;
  };
  /** A finished result held outside the list (`recovered`) that answers the call in `slot`, added to `used`. */
  recovered: {
    resultFor(turn: Turn, slot: number, recovered: readonly unknown[], used: unknown[]): ToolResult | undefined;
  };
  /** The results of the input that yield to finished ones in `recovered`, taken out of `turn`. */
  yields: { yieldToFinished(turn: Turn, recovered: readonly unknown[], inputStart: number): KeptResult[] };
  /** A placeholder answers a call no result does; the unit whose `fits` holds reports it. */
  placeholder: { fits(call: ToolCallRef, answered: number): boolean };
}

export type PairingStep = keyof PairingSteps;

export type PairingRule = { [S in PairingStep]: { step: S } & PairingSteps[S] }[PairingStep];

/** One pattern as users see it; `kind` is `Repair.kind`. */
export interface Pattern {
  kind: string;
  /** As the README's table has it. */
  summary: string;
  shape: string;
  repair: string;
  /** A pattern in two scopes says in `shape` which occurrences are which. */
  applies: readonly Scope[];
}

export interface PatternUnit extends Pattern {
  code: string;
  /** Removing one leaves its neighbours as they were, so no turn-taking break comes of it. */
  keepsNeighbours?: true;
  boundary?: BoundaryRule;
  message?: MessageRule;
  reply?: ReplyRule;
  removal?: RemovalRule;
  pairing?: PairingRule;
}

/** Keeps the unit's literal types. */
export const definePattern = <const U extends PatternUnit>(unit: U): U => Object.freeze(unit);
