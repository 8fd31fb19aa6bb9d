import type { BaseMessage } from "@langchain/core/messages";
import { rawToolCallIdOf, roleOf, type MessageRole } from "../../messages/message-view.js";
import type { MarkerTexts } from "../synthetic/markers.js";
import type { BoundaryRule, PatternUnit } from "../rules/define-pattern.js";
import type { Repair } from "../report/catalog.js";
import { UNITS } from "../patterns/index.js";
import type { ReplyCopy } from "./reply-rules.js";
import { reportOf } from "../report/report-of.js";
import { asHumanMessage, resultWith, rewriteCalls } from "../copies/message-copies.js";
import { boundaryBreak, messageRulesOf, TURN, type MessageUnit, type TurnCode } from "../rules/rule-set.js";
import { isSyntheticMessage, withIdPrefix } from "../../messages/synthetic-ids.js";
import { idOrPosition, isSystemBridge, type BridgeRole } from "../synthetic/inserted-messages.js";
import { idOut, type InsertedResult, type KeptResult, type PatternRef, type ToolResult, type Turn } from "./turn.js";
import type { RepairContext } from "./well-formed.js";

/** A turn with the answer each call goes out with, or the position of a message of no turn. */
export type AnsweredSegment = { turn: Turn; answers: readonly ToolResult[] } | number;

export interface EmitContext extends RepairContext {
  messages: readonly unknown[];
  tailStart: number;
  markers: Readonly<MarkerTexts>;
  bridgeRole: BridgeRole;
  idPrefix: string;
  /** Removed inputs before each position, to tell moved results from shifted ones; undefined when none was. */
  removedBefore: Int32Array | undefined;
  /** Reply rules' copies, by input position. */
  replyCopies: ReadonlyMap<number, ReplyCopy>;
}

/** A result answers `toolCallId` when given. */
function messageCopy(
  message: unknown,
  fired: readonly MessageUnit[],
  texts: Readonly<MarkerTexts>,
  toolCallId?: string,
) {
  let content: string | undefined;
  let sendAs: MessageRole | undefined;
  for (const { message: rule } of fired) {
    if (rule.text !== undefined) content = texts[rule.text];
    sendAs ??= rule.sendAs;
  }
  if (sendAs === undefined && roleOf(message) === "tool") {
    const fields: { tool_call_id?: string; content?: string } = {};
    if (toolCallId !== undefined) fields.tool_call_id = toolCallId;
    if (content !== undefined) fields.content = content;
    return resultWith(message, fields);
  }
  return asHumanMessage(message, content ?? (message as { content: unknown }).content);
}

/**
 * Writes each turn as its AIMessage and its results in call order, then the untouched tail; boundary rules insert
 * between turns. A boundary where a broken run ended or that the repair made is read under the leftovers rules too.
 */
class Rebuild {
  readonly out: unknown[] = [];
  private prev: TurnCode = TURN.none;
  /** Whether the repair made the last turn end where it does: it never leaves a turn-taking break it made. */
  private repairMade = false;
  /** The last HumanMessage (or a marker for one), and the last reply. */
  private userTurn = "";
  private lastReply = "";
  /** Removed positions whose neighbours then meet, and the next one to pass. */
  private readonly removed: number[];
  private nextRemoved = 0;
  /** Where the first message of the input went out. */
  inputAt: number | undefined;
  private leftoversPassed = false;

  constructor(
    private readonly ctx: EmitContext,
    private readonly repairs: Repair[],
  ) {
    // So far `repairs` holds the removals only.
    this.removed = repairs
      .filter((r) => !(UNITS[r.code] as PatternUnit).keepsNeighbours)
      .map((r) => r.index)
      .sort((a, b) => a - b);
  }

  /** Before the message at `at`: a removal before it, or the leftovers input follows, make the next boundary. */
  pass(at: number): void {
    for (; this.nextRemoved < this.removed.length && this.removed[this.nextRemoved]! < at; this.nextRemoved++) {
      this.repairMade = true;
    }
    const { leftoversAt } = this.ctx;
    if (leftoversAt >= 0 && at >= leftoversAt && !this.leftoversPassed) {
      this.leftoversPassed = true;
      this.repairMade = true;
    }
  }

  /** A message of the list, from position `from`. */
  private push(message: unknown, from: number): void {
    if (this.inputAt === undefined && from >= this.ctx.inputStart) this.inputAt = this.out.length;
    this.out.push(message);
  }

  private insert(unit: PatternRef, message: unknown, original?: unknown): void {
    this.repairs.push(reportOf(unit, "inserted", this.out.length, message, undefined, original));
  }

  private rewritten(units: readonly PatternRef[], original: unknown, from: number, message: unknown): void {
    for (const unit of units) this.repairs.push(reportOf(unit, "rewritten", this.out.length, message, from, original));
  }

  /** `next` is the message next to the boundary, whose id the inserted message's id is derived from. */
  boundary(before: BoundaryRule["before"], leftovers: boolean, next?: unknown, nextIndex = -1): void {
    const { rules } = this.ctx;
    const table = leftovers || this.repairMade ? rules.leftoverBoundaries : rules.boundaries;
    const unit = boundaryBreak(table[before], this.prev, this.out[this.out.length - 1]);
    if (unit === undefined) return;
    const { userTurn, lastReply } = this;
    const around = { userTurn, lastReply, next: nextIndex < 0 ? "" : idOrPosition(next, nextIndex) };
    const message = withIdPrefix(
      unit.boundary.insert(around, this.ctx.markers, this.ctx.bridgeRole),
      this.ctx.idPrefix,
    );
    this.insert(unit, message);
    this.out.push(message);
    if (before === "human") {
      this.prev = TURN.ai;
    } else {
      this.prev = TURN.human;
      this.userTurn = message.id!;
    }
  }

  turn({ turn, answers }: { turn: Turn; answers: readonly ToolResult[] }): void {
    this.reply(turn.ai, turn.index);
    const { ctx } = this;
    const { calls: callsRule, ids: idsRule, order } = ctx.rules.pairing;
    const outside = callsRule.pairing.outside(turn);
    const renamed = turn.renamed !== undefined;
    const replyCopy = ctx.replyCopies.get(turn.index);
    // Most turns go out as stored: no list of patterns is made for them.
    const copy =
      outside || renamed ? rewriteCalls(turn.ai, turn.calls, turn.renamed ?? turn.calls.map((c) => c.id)) : turn.ai;
    if (outside || renamed || replyCopy !== undefined) {
      const by = [
        ...(replyCopy !== undefined ? replyCopy.units : []),
        ...(outside ? [callsRule] : []),
        ...(renamed ? [idsRule] : []),
      ];
      this.rewritten(by, ctx.messages[turn.index], turn.index, copy);
    }
    this.push(copy, turn.index);
    let previous = turn.index;
    let storedRunEnd: number | undefined;
    for (let slot = 0; slot < answers.length; slot++) {
      const result = answers[slot]!;
      if ("pattern" in result) {
        this.insertedResult(result);
        continue;
      }
      if (order.pairing.moved(this.positionAfterRemovals(result.index), this.positionAfterRemovals(previous))) {
        if (result.index > (storedRunEnd ??= this.runEnd(turn.index))) this.repairMade = true;
        this.repairs.push(reportOf(order, "moved", this.out.length, result.message, result.index));
      }
      previous = result.index;
      this.keptResult(result, idOut(turn, slot));
    }
    this.prev = TURN.tools;
    this.lastReply = idOrPosition(turn.ai, turn.index);
  }

  private insertedResult({ message: inserted, pattern, original }: InsertedResult): void {
    this.repairMade = true;
    // A placeholder; a recovered result (`stranded-tool-result`) keeps its own id.
    const message = isSyntheticMessage(inserted) ? withIdPrefix(inserted as BaseMessage, this.ctx.idPrefix) : inserted;
    const fired = messageRulesOf(this.ctx.rules, "tool", message, this.prev);
    if (fired.length === 0) {
      this.insert(pattern, message, original);
      this.out.push(message);
      return;
    }
    const sent = messageCopy(message, fired, this.ctx.markers);
    for (const unit of [pattern, ...fired]) this.insert(unit, sent, original ?? message);
    this.out.push(sent);
  }

  /** Under the id its call goes out with. */
  private keptResult({ message, index }: KeptResult, id: string): void {
    const renamed = rawToolCallIdOf(message) !== id;
    const fired = messageRulesOf(this.ctx.rules, "tool", message, this.prev);
    if (!renamed && fired.length === 0) {
      this.push(message, index);
      return;
    }
    const copy = messageCopy(message, fired, this.ctx.markers, renamed ? id : undefined);
    this.rewritten([...(renamed ? [this.ctx.rules.pairing.ids] : []), ...fired], message, index, copy);
    this.push(copy, index);
  }

  other(index: number): void {
    const message = this.ctx.messages[index];
    const role = roleOf(message);
    const fired = messageRulesOf(this.ctx.rules, role, message, this.prev);
    const sentAs =
      fired.length === 0 ? role : (fired.find((unit) => unit.message.sendAs !== undefined)?.message.sendAs ?? role);
    if (sentAs === "human") {
      this.boundary("human", false);
      this.repairMade = false;
      this.prev = TURN.human;
      this.userTurn = idOrPosition(message, index);
      if (fired.length > 0) {
        const copy = messageCopy(message, fired, this.ctx.markers);
        this.rewritten(fired, message, index, copy);
        this.push(copy, index);
        return;
      }
    } else if (isSystemBridge(message)) {
      this.prev = TURN.ai;
    } else if (role === "ai") {
      this.reply(message, index);
      this.prev = TURN.ai;
      const replyCopy = this.ctx.replyCopies.get(index);
      if (replyCopy !== undefined) {
        this.rewritten(replyCopy.units, message, index, replyCopy.message);
        this.push(replyCopy.message, index);
        return;
      }
    }
    this.push(message, index);
  }

  private reply(message: unknown, index: number): void {
    this.boundary("ai", false, message, index);
    this.repairMade = false;
    this.lastReply = idOrPosition(message, index);
  }

  end(): unknown[] {
    const { messages, tailStart, tail } = this.ctx;
    this.pass(messages.length);
    if (tailStart < messages.length) {
      const first = roleOf(messages[tailStart]);
      if (first === "human") this.boundary("human", false);
      else if (first === "ai") this.boundary("ai", false, messages[tailStart], tailStart);
      for (let i = tailStart; i < messages.length; i++) this.push(messages[i], i);
    } else if (tail !== "request") {
      this.boundary("human", tail === "stopped");
    } else {
      const last = this.out.length - 1;
      this.boundary("request", false, this.out[last], last);
    }
    return this.out;
  }

  private positionAfterRemovals(index: number): number {
    const { removedBefore } = this.ctx;
    return removedBefore === undefined ? index : index - removedBefore[index]!;
  }

  private runEnd(index: number): number {
    let end = index + 1;
    while (end < this.ctx.messages.length && roleOf(this.ctx.messages[end]) === "tool") end++;
    return end;
  }
}

/**
 * Writes the units out in order, adding every change to `repairs`; `inputAt` is where the input's first message went
 * out (the output's length when none did).
 */
export function emit(
  segments: readonly AnsweredSegment[],
  ctx: EmitContext,
  repairs: Repair[],
): { out: unknown[]; inputAt: number } {
  const rebuild = new Rebuild(ctx, repairs);
  for (const part of segments) {
    rebuild.pass(typeof part === "number" ? part : part.turn.index);
    if (typeof part === "number") rebuild.other(part);
    else rebuild.turn(part);
  }
  const out = rebuild.end();
  return { out, inputAt: rebuild.inputAt ?? out.length };
}
