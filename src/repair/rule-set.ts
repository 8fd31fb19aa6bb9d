/**
 * Which pattern rules apply to a read, resolved once from the options and read by the engine at each place of its
 * walk: a rule applies when its unit's scope does (`anywhere`; `provider` under a provider that needs it; `model`
 * where the model is known; `leftovers` where a broken run ended or the repair made the boundary).
 * @internal
 */
import type { MessageRole } from "../messages/message-view.js";
import type { BoundaryRule, MessageRule, PatternUnit, RemovalRule, ReplyRule, Scope, TurnState } from "./pattern.js";
import { UNITS } from "./patterns/index.js";
import { providerPatterns, type ProviderRules } from "./provider-rules.js";

export type BoundaryUnit = PatternUnit & { boundary: BoundaryRule };
export type MessageUnit = PatternUnit & { message: MessageRule };
export type ReplyUnit = PatternUnit & { reply: ReplyRule };
export type RemovalUnit = PatternUnit & { removal: RemovalRule };

/** The boundary rules that apply, by what comes next and what came last (at most one each). */
export type BoundaryTable = Readonly<
  Record<BoundaryRule["before"], Readonly<Partial<Record<TurnState, BoundaryUnit>>>>
>;

export interface RuleSet {
  /** The boundary rules of the history as stored. */
  boundaries: BoundaryTable;
  /** The boundary rules where a broken run ended or the repair made the boundary: the `leftovers` ones too. */
  leftovers: BoundaryTable;
  /** The message rules, by the role of the message they read. */
  messages: Readonly<Record<MessageRule["role"], readonly MessageUnit[]>>;
  /** The reply rules, in the order they run. */
  replies: readonly ReplyUnit[];
  /** Of those, the ones that read content blocks, and the ones that read a reply's other fields or its place. */
  blockReaders: readonly ReplyRule[];
  replyReaders: readonly ReplyRule[];
  /** The removal rules, by the role of the message they read. */
  removals: Readonly<Partial<Record<MessageRole, readonly RemovalUnit[]>>>;
}

const ALL: readonly PatternUnit[] = Object.values(UNITS);

function boundaryTable(units: readonly PatternUnit[]): BoundaryTable {
  const table = { human: {}, ai: {}, "request-end": {} } as Record<
    BoundaryRule["before"],
    Partial<Record<TurnState, BoundaryUnit>>
  >;
  for (const unit of units) if (unit.boundary) table[unit.boundary.before][unit.boundary.after] = unit as BoundaryUnit;
  return table;
}

function byRole<U extends PatternUnit>(units: readonly U[], roleOf: (unit: U) => string): Record<string, U[]> {
  const out: Record<string, U[]> = {};
  for (const unit of units) (out[roleOf(unit)] ??= []).push(unit);
  return out;
}

function ruleSetOf(applies: (unit: PatternUnit, scope: Scope) => boolean): RuleSet {
  const active = ALL.filter((unit) => unit.applies.some((scope) => applies(unit, scope)));
  const replies = active
    .filter((unit): unit is ReplyUnit => unit.reply !== undefined)
    .sort((a, b) => a.reply.order - b.reply.order);
  const messages = active.filter((unit): unit is MessageUnit => unit.message !== undefined);
  const removals = active.filter((unit): unit is RemovalUnit => unit.removal !== undefined);
  return Object.freeze({
    boundaries: boundaryTable(active),
    leftovers: boundaryTable(ALL.filter((unit) => active.includes(unit) || unit.applies.includes("leftovers"))),
    messages: { human: [], tool: [], system: [], ...byRole(messages, (unit) => unit.message.role) },
    replies,
    blockReaders: replies.map((unit) => unit.reply).filter((rule) => rule.readsBlock !== undefined),
    replyReaders: replies.map((unit) => unit.reply).filter((rule) => rule.readsReply !== undefined),
    removals: byRole(removals, (unit) => unit.removal.role),
  });
}

const CACHE = new Map<string, RuleSet>();

/** The rules that apply under `provider` for `model` (see {@link Scope}); one object per pair, kept. */
export function ruleSetFor(provider: ProviderRules | undefined, model: string | undefined): RuleSet {
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

/** The boundary rule that breaks between `prev` and `before` in `table`, if any; `last` is the message before it. */
export function boundaryBreak(
  table: BoundaryTable,
  prev: TurnState,
  before: BoundaryRule["before"],
  last?: unknown,
): BoundaryUnit | undefined {
  const unit = table[before][prev];
  return unit === undefined || unit.boundary.exempt?.(last) ? undefined : unit;
}

/** The removal rule that removes `message` (of `role`, with `callCount` calls), if any. */
export function removalOf(
  rules: RuleSet,
  role: MessageRole,
  message: unknown,
  callCount: number,
): RemovalUnit | undefined {
  const units = rules.removals[role];
  if (units !== undefined) for (const unit of units) if (unit.removal.removes(message, callCount)) return unit;
  return undefined;
}

const NONE: readonly MessageUnit[] = Object.freeze([]);

/**
 * The message rules that change `message` (of `role`, after `prev`), in order; a rule that sends it as another role
 * brings that role's rules. A shared empty array when none does: the clean check runs this for every message.
 */
export function messageRulesOf(
  rules: RuleSet,
  role: MessageRole,
  message: unknown,
  prev: TurnState,
): readonly MessageUnit[] {
  const units = rules.messages[role as MessageRule["role"]];
  if (units === undefined) return NONE;
  let found: MessageUnit[] | undefined;
  for (const unit of units) {
    if (!unit.message.finds(message, prev)) continue;
    (found ??= []).push(unit);
    const sendAs = unit.message.sendAs;
    if (sendAs !== undefined) found.push(...messageRulesOf(rules, sendAs, message, prev));
  }
  return found ?? NONE;
}
