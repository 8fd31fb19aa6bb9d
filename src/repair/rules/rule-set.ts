// Which rules apply, resolved once per provider and model, in tables laid out for the clean check (docs/internals.md).
import type { MessageRole } from "../../messages/message-view.js";
import type {
  BoundaryRule,
  MessageRule,
  PairingRule,
  PairingStep,
  PatternUnit,
  RemovalRule,
  ReplyPart,
  ReplyRule,
  Scope,
  TurnState,
} from "./define-pattern.js";
import { REPLY_ORDER, UNITS } from "../patterns/index.js";
import { providerPatterns, type ProviderChoice } from "./provider-patterns.js";

export type BoundaryUnit = PatternUnit & { boundary: BoundaryRule };
export type MessageUnit = PatternUnit & { message: MessageRule };
export type ReplyUnit = PatternUnit & { reply: ReplyRule };
export type RemovalUnit = PatternUnit & { removal: RemovalRule };
export type PairingUnit<S extends PairingStep = PairingStep> = PatternUnit & {
  pairing: Extract<PairingRule, { step: S }>;
};

/** An index into the rows of a {@link BoundaryTable}. */
export type TurnCode = 0 | 1 | 2 | 3;
export const TURN = Object.freeze({ none: 0, human: 1, ai: 2, tools: 3 } as const satisfies Record<
  TurnState,
  TurnCode
>);
const TURN_STATES: readonly TurnState[] = ["none", "human", "ai", "tools"];

/** By {@link TurnCode} of the turn before. */
export type BoundaryRow = readonly (BoundaryUnit | undefined)[];
export type BoundaryTable = Readonly<Record<BoundaryRule["before"], BoundaryRow>>;

/** One test per reply for each part some rule reads. */
export const PART_BITS = Object.freeze({
  tool_call_chunks: 1,
  output: 2,
  reasoning: 4,
  tool_outputs: 8,
  "last-turn": 16,
} as const satisfies Record<ReplyPart, number>);

type ByRole<T> = Readonly<Record<MessageRole, readonly T[]>>;

export interface RuleSet {
  boundaries: BoundaryTable;
  /** Where a broken run ended or the repair made the boundary. */
  leftoverBoundaries: BoundaryTable;
  messages: ByRole<MessageUnit>;
  removals: ByRole<RemovalUnit>;
  /** One function, so the clean check calls one known function at that place. */
  replyRemoved: RemovalRule["removes"] | undefined;
  /** The clean check reads no other message past its role. */
  reads: Readonly<Record<MessageRole, boolean>>;
  /** In the order they run. */
  replies: readonly ReplyUnit[];
  /** By exact type, or a suffix (`*_tool_result`). */
  blockReaders(type: string): readonly ReplyRule[] | undefined;
  /** As {@link PART_BITS}. */
  parts: number;
  /** Every provider's: the pairing rules, by step. */
  pairing: PairingTable;
  /** The placeholder step's units, one for each kind of unanswered call. */
  placeholders: readonly PairingUnit<"placeholder">[];
}

export type PairingTable = { readonly [S in Exclude<PairingStep, "placeholder">]: PairingUnit<S> };

const ALL: readonly PatternUnit[] = Object.values(UNITS);

const isPairing = (unit: PatternUnit): unit is PairingUnit => unit.pairing !== undefined;

const PLACEHOLDERS = Object.freeze(
  ALL.filter((unit): unit is PairingUnit<"placeholder"> => unit.pairing?.step === "placeholder"),
);

/** The steps one unit each holds; a step added to `PairingSteps` does not compile until it is named here. */
const TABLE_STEPS = {
  input: true,
  owner: true,
  slot: true,
  order: true,
  calls: true,
  ids: true,
  recovered: true,
  yields: true,
} as const satisfies Record<keyof PairingTable, true>;

/** One unit per step: a step without one, or with two, is a mistake in the table. */
const PAIRING: PairingTable = (() => {
  const steps: Partial<Record<PairingStep, PairingUnit>> = {};
  for (const unit of ALL.filter(isPairing)) {
    const { step } = unit.pairing;
    if (step === "placeholder") continue;
    if (steps[step] !== undefined)
      throw new Error(`Two pairing rules at step "${step}": ${unit.kind}, ${steps[step]!.kind}`);
    steps[step] = unit;
  }
  const missing = (Object.keys(TABLE_STEPS) as (keyof PairingTable)[]).filter((step) => steps[step] === undefined);
  if (missing.length > 0) throw new Error(`No pairing rule at step ${missing.join(", ")}`);
  return Object.freeze(steps) as PairingTable;
})();

/** Every reply rule has its place in the order they run. */
const REPLIES: readonly ReplyUnit[] = (() => {
  const ordered = REPLY_ORDER as readonly PatternUnit[];
  const unordered = ALL.filter((unit) => unit.reply !== undefined && !ordered.includes(unit));
  if (unordered.length > 0) throw new Error(`Reply rules missing from REPLY_ORDER: ${unordered.map((u) => u.kind)}`);
  return ordered.filter((unit): unit is ReplyUnit => unit.reply !== undefined);
})();

function boundaryTable(units: readonly PatternUnit[]): BoundaryTable {
  const row = (before: BoundaryRule["before"]): BoundaryRow =>
    TURN_STATES.map((after) =>
      units.find((unit): unit is BoundaryUnit => unit.boundary?.before === before && unit.boundary.after === after),
    );
  return Object.freeze({ human: row("human"), ai: row("ai"), request: row("request") });
}

function byRole<U extends PatternUnit>(units: readonly U[], roleOf: (unit: U) => MessageRole): ByRole<U> {
  const of = (role: MessageRole) => units.filter((unit) => roleOf(unit) === role);
  return Object.freeze({
    human: of("human"),
    ai: of("ai"),
    tool: of("tool"),
    system: of("system"),
    other: of("other"),
  });
}

/** A store of odd block types is not cached past this. */
const KNOWN_BLOCK_TYPES = 256;

function blockReadersOf(rules: readonly ReplyRule[]): RuleSet["blockReaders"] {
  const declared = rules.flatMap((rule) => (rule.blockTypes ?? []).map((type) => [type, rule] as const));
  const readersOf = (type: string) => {
    const readers = declared
      .filter(([read]) => read === type || (read.startsWith("*") && type.endsWith(read.slice(1))))
      .map(([, rule]) => rule);
    return readers.length > 0 ? readers : undefined;
  };
  // What reads a type is worked out once, the first time it is seen.
  const known = new Map<string, readonly ReplyRule[] | null>();
  return (type) => {
    const seen = known.get(type);
    if (seen !== undefined) return seen ?? undefined;
    const readers = readersOf(type);
    if (known.size < KNOWN_BLOCK_TYPES) known.set(type, readers ?? null);
    return readers;
  };
}

function oneOf<A extends unknown[]>(
  predicates: readonly ((...args: A) => boolean)[],
): ((...args: A) => boolean) | undefined {
  if (predicates.length <= 1) return predicates[0];
  return (...args) => predicates.some((predicate) => predicate(...args));
}

function ruleSetOf(applies: (unit: PatternUnit, scope: Scope) => boolean): RuleSet {
  const active = ALL.filter((unit) => unit.applies.some((scope) => applies(unit, scope)));
  const replies = REPLIES.filter((unit) => active.includes(unit));
  const messages = active.filter((unit): unit is MessageUnit => unit.message !== undefined);
  const removals = active.filter((unit): unit is RemovalUnit => unit.removal !== undefined);
  const byRoleMessages = byRole(messages, (unit) => unit.message.role);
  const byRoleRemovals = byRole(removals, (unit) => unit.removal.role);
  const reads = (role: MessageRole) => byRoleMessages[role].length + byRoleRemovals[role].length > 0;
  let parts = 0;
  for (const { reply } of replies) for (const part of reply.readsParts ?? []) parts |= PART_BITS[part];
  return Object.freeze({
    boundaries: boundaryTable(active),
    leftoverBoundaries: boundaryTable(
      ALL.filter((unit) => active.includes(unit) || unit.applies.includes("leftovers")),
    ),
    messages: byRoleMessages,
    removals: byRoleRemovals,
    replyRemoved: oneOf(byRoleRemovals.ai.map((unit) => unit.removal.removes)),
    reads: Object.freeze({
      human: reads("human"),
      ai: reads("ai"),
      tool: reads("tool"),
      system: reads("system"),
      other: reads("other"),
    }),
    replies,
    blockReaders: blockReadersOf(replies.map((unit) => unit.reply)),
    parts,
    pairing: PAIRING,
    placeholders: PLACEHOLDERS,
  });
}

const CACHE = new Map<string, RuleSet>();

/** One object per pair, kept. */
export function ruleSetFor(provider: ProviderChoice | undefined, model: string | undefined): RuleSet {
  const key = `${provider ?? ""}\n${model ?? ""}`;
  let rules = CACHE.get(key);
  if (rules === undefined) {
    const codes = providerPatterns(provider, model);
    rules = ruleSetOf(
      (unit, scope) =>
        scope === "anywhere" ||
        (scope === "provider" && codes.has(unit.code)) ||
        (scope === "model" && model !== undefined),
    );
    CACHE.set(key, rules);
  }
  return rules;
}

/** `last` is the message before the boundary. */
export function boundaryBreak(row: BoundaryRow, prev: TurnCode, last?: unknown): BoundaryUnit | undefined {
  const unit = row[prev];
  return unit === undefined || unit.boundary.exempt?.(last) ? undefined : unit;
}

/** A switch, so every read is a named one (this runs for every message). */
export function ofRole<T>(lists: Readonly<Record<MessageRole, T>>, role: MessageRole): T {
  switch (role) {
    case "human":
      return lists.human;
    case "ai":
      return lists.ai;
    case "tool":
      return lists.tool;
    case "system":
      return lists.system;
    default:
      return lists.other;
  }
}

export function removalAmong(
  units: readonly RemovalUnit[],
  message: unknown,
  callCount: number,
): RemovalUnit | undefined {
  for (let i = 0; i < units.length; i++) if (units[i]!.removal.removes(message, callCount)) return units[i];
  return undefined;
}

export function removalOf(
  rules: RuleSet,
  role: MessageRole,
  message: unknown,
  callCount: number,
): RemovalUnit | undefined {
  return removalAmong(ofRole(rules.removals, role), message, callCount);
}

const NONE: readonly MessageUnit[] = Object.freeze([]);

/** A rule that sends it as another role brings that role's rules. A shared empty array when none. */
export function messageRulesOf(
  rules: RuleSet,
  role: MessageRole,
  message: unknown,
  prev: TurnCode,
): readonly MessageUnit[] {
  const units = ofRole(rules.messages, role);
  if (units.length === 0) return NONE;
  const after = TURN_STATES[prev]!;
  let found: MessageUnit[] | undefined;
  for (const unit of units) {
    if (!unit.message.finds(message, after)) continue;
    (found ??= []).push(unit);
    const sendAs = unit.message.sendAs;
    if (sendAs !== undefined) found.push(...messageRulesOf(rules, sendAs, message, prev));
  }
  return found ?? NONE;
}
