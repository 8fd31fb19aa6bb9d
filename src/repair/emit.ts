import { hasEmptyContent, rawToolCallIdOf, roleOf } from "../messages/message-view.js";
import type { MarkerTexts } from "./markers.js";
import { patternOf, type PatternId, type Repair } from "./patterns.js";
import { messageRefs } from "./report.js";
import { asHumanMessage, resultWith, rewriteCalls } from "./rewrite.js";
import { idOut, type ToolResult, type Turn } from "./segment.js";
import type { CleanedReply } from "./reply-cleaning.js";
import {
  anchorOf,
  isSyntheticMessage,
  betweenRepliesMessage,
  bridgeMessage,
  closingMessage,
  continueMessage,
  openingMessage,
  type BridgeRole,
} from "./synthetic.js";
import { EVERY_RULE } from "./provider-rules.js";
import {
  humanMayFollow,
  isMidHistorySystem,
  replyMayFollow,
  requestMayEnd,
  type Closing,
  type TurnState,
} from "./well-formed.js";

/** A unit whose turn has an answer for every call (see `answerEveryCall`). */
export type AnsweredUnit = { turn: Turn; answers: readonly ToolResult[] } | number;

/** What `emit` needs besides the units. */
export interface EmitContext extends Closing {
  messages: readonly unknown[];
  tailStart: number;
  markers: Readonly<MarkerTexts>;
  bridgeRole: BridgeRole;
  /**
   * How many input messages before each position were removed, to tell moved results from shifted ones;
   * undefined when none was.
   */
  removedBefore: Int32Array | undefined;
  /** The AIMessages sent as the copies the reply rules wrote, by input position (patterns M, P to V). */
  cleaned: ReadonlyMap<number, CleanedReply>;
}

/**
 * Why the AIMessage of `turn` is sent as a copy: G when a call is not in `tool_calls` (or an
 * entry is not a call), I when a call's id changes. Undefined when it goes out as stored.
 */
function rewriteCodes(turn: Turn): PatternId[] | undefined {
  const stored = (turn.ai as { tool_calls?: unknown }).tool_calls;
  let visible = 0;
  for (const call of turn.calls) if (!call.invalid) visible++;
  const g = visible !== turn.calls.length || !Array.isArray(stored) || stored.length !== visible;
  if (!g && turn.renamed === undefined) return undefined;
  const codes: PatternId[] = g ? ["G"] : [];
  if (turn.renamed !== undefined) codes.push("I");
  return codes;
}

/**
 * Writes the units out in order, each turn as its AIMessage followed by its
 * results in call order, then the untouched tail.
 *
 * - Patterns G, I: an AIMessage whose calls are not all in `tool_calls`, or
 *   whose ids change, goes out as a copy (`rewriteCalls`); results of a renamed
 *   call go out as copies answering the new id.
 * - Pattern E: a result that did not directly follow the previous message of
 *   its turn is reported as moved.
 * - Pattern A: a HumanMessage after a HumanMessage gets a marker reply before it (role order), and so does
 *   the end after one when it is closed.
 * - Pattern C: tool results get a marker AIMessage after them before a HumanMessage (role order), and at the
 *   end when it is closed.
 * - Pattern J: an AIMessage that opens the conversation gets a marker HumanMessage before it (role order).
 * - Pattern K: an AIMessage right after a reply without calls gets a marker HumanMessage before it (role order).
 * - Patterns M, P to V: an AIMessage the reply rules changed goes out as their copy.
 * - Patterns W, X: an empty ToolMessage or HumanMessage goes out as a copy with a marker text (provider rules).
 * - Pattern Y: a SystemMessage after the conversation started goes out as a HumanMessage copy (provider rules).
 * - Pattern Z: a model request that ends on a reply gets a marker HumanMessage after it (provider rules).
 *
 * The provider rules are `ctx.rules`; the end of a broken run (`ctx.end === "leftovers"`) and a turn whose end the
 * repair made (see `touched`) are closed and opened under every rule.
 */
export function emit(units: readonly AnsweredUnit[], ctx: EmitContext, repairs: Repair[]): unknown[] {
  const out: unknown[] = [];
  const insert = (repair: Omit<Repair, "index" | "action">) => {
    repairs.push({ ...repair, action: "inserted", index: out.length });
    out.push(repair.message);
  };
  const rewritten = (codes: readonly PatternId[], original: unknown, from: number, message: unknown) => {
    const refs = messageRefs(message);
    for (const code of codes) {
      repairs.push({ ...patternOf(code), action: "rewritten", index: out.length, from, message, original, ...refs });
    }
  };
  const { removedBefore } = ctx;
  const rank = (index: number) => (removedBefore === undefined ? index : index - removedBefore[index]!);
  let prev: TurnState = "none";
  // Whether the repair made the turn that came last end where it does: answered one of its calls, brought back a
  // result from past the next message, or removed the message that stood there (an empty reply H, an orphan
  // result D). Such a turn is closed and opened under every rule, as a broken run's leftovers are: the repair
  // never leaves a role-order break it made. (Putting adjacent results in call order, or dropping a duplicate
  // result or a RemoveMessage, makes no new neighbours.)
  let touched = false;
  // So far `repairs` holds the removals only (input positions): of a duplicate result (F) and a RemoveMessage (L) no
  // new neighbours come.
  const removed = repairs
    .filter((r) => r.code !== "F" && r.code !== "L")
    .map((r) => r.index)
    .sort((a, b) => a - b);
  /** The input position of the first message after the AIMessage at `index` that is not a tool result. */
  const runEnd = (index: number) => {
    let end = index + 1;
    while (end < ctx.messages.length && roleOf(ctx.messages[end]) === "tool") end++;
    return end;
  };
  let nextRemoved = 0;
  // The user turn the conversation is in (the last HumanMessage, or a marker J or K put in), and the last reply.
  let userTurn = "";
  let lastReply = "";
  /** Before an AIMessage at `index`: the user turn providers want before it, when none came (J, K). */
  const openReply = (message: unknown, index: number) => {
    if (replyMayFollow(prev, touched ? EVERY_RULE : ctx.rules)) return;
    const turn =
      prev === "none"
        ? openingMessage(anchorOf(message, index), ctx.markers.missingOpening)
        : betweenRepliesMessage(lastReply, ctx.markers.missingTurnBetweenReplies);
    insert({ ...patternOf(prev === "none" ? "J" : "K"), message: turn, ...messageRefs(turn) });
    userTurn = turn.id!;
  };
  /** Before a HumanMessage, or at the end (`atEnd`) when it is closed: the reply the turn never got (A, C). */
  const closeTurn = (atEnd: boolean) => {
    const leftovers = (atEnd && ctx.end === "leftovers") || touched;
    if (humanMayFollow(prev, leftovers ? EVERY_RULE : ctx.rules)) return;
    const message =
      prev === "human"
        ? bridgeMessage(userTurn, ctx.markers.missingReply, ctx.bridgeRole)
        : closingMessage(userTurn || lastReply, ctx.markers.missingReplyAfterTools);
    insert({ ...patternOf(prev === "human" ? "A" : "C"), message, ...messageRefs(message) });
    prev = "ai";
  };

  for (const unit of units) {
    const at = typeof unit === "number" ? unit : unit.turn.index;
    for (; nextRemoved < removed.length && removed[nextRemoved]! < at; nextRemoved++) touched = true;
    if (typeof unit !== "number") {
      const { turn, answers } = unit;
      openReply(turn.ai, turn.index);
      touched = false;
      const codes = rewriteCodes(turn);
      const cleaned = ctx.cleaned.get(turn.index);
      const stored = ctx.messages[turn.index];
      if (codes === undefined) {
        if (cleaned !== undefined) rewritten(cleaned.codes, stored, turn.index, turn.ai);
        out.push(turn.ai);
      } else {
        const copy = rewriteCalls(turn.ai, turn.calls, turn.renamed ?? turn.calls.map((c) => c.id));
        rewritten(cleaned === undefined ? codes : [...cleaned.codes, ...codes], stored, turn.index, copy);
        out.push(copy);
      }
      let previous = turn.index;
      let storedRunEnd: number | undefined;
      for (let slot = 0; slot < answers.length; slot++) {
        const result = answers[slot]!;
        if ("code" in result) {
          touched = true;
          const { code, original } = result;
          // A result recovered from pendingWrites with no text gets the marker text where the provider needs it (W).
          const empty = code === "N" && ctx.rules.W && hasEmptyContent(result.message);
          const message = empty ? resultWith(result.message, { content: ctx.markers.emptyToolResult }) : result.message;
          const stored = empty ? (original ?? result.message) : original;
          for (const reported of empty ? (["N", "W"] as const) : [code]) {
            repairs.push({
              ...patternOf(reported),
              action: "inserted",
              index: out.length,
              message,
              ...(stored !== undefined ? { original: stored } : {}),
              ...messageRefs(message),
            });
          }
          out.push(message);
          continue;
        }
        const { message, index } = result;
        if (rank(index) !== rank(previous) + 1) {
          if (index > (storedRunEnd ??= runEnd(turn.index))) touched = true;
          const refs = messageRefs(message);
          repairs.push({ ...patternOf("E"), action: "moved", index: out.length, from: index, message, ...refs });
        }
        previous = index;
        const id = idOut(turn, slot);
        const renamed = rawToolCallIdOf(message) !== id;
        const empty = ctx.rules.W && hasEmptyContent(message);
        if (!renamed && !empty) {
          out.push(message);
          continue;
        }
        const copy = resultWith(message, {
          ...(renamed ? { tool_call_id: id } : {}),
          ...(empty ? { content: ctx.markers.emptyToolResult } : {}),
        });
        rewritten([...(renamed ? ["I" as const] : []), ...(empty ? ["W" as const] : [])], message, index, copy);
        out.push(copy);
      }
      prev = "tools";
      lastReply = anchorOf(turn.ai, turn.index);
      continue;
    }
    const message = ctx.messages[unit];
    const role = roleOf(message);
    const system = role === "system" && isMidHistorySystem(message, prev, ctx.rules);
    if (role === "human" || system) {
      closeTurn(false);
      touched = false;
      prev = "human";
      userTurn = anchorOf(message, unit);
      // A SystemMessage mid-history goes as a user turn (Y); an empty user turn gets a text (X).
      const empty = ctx.rules.X && hasEmptyContent(message);
      if (system || empty) {
        const copy = asHumanMessage(
          message,
          empty ? ctx.markers.emptyMessage : (message as { content: unknown }).content,
        );
        rewritten([...(system ? ["Y" as const] : []), ...(empty ? ["X" as const] : [])], message, unit, copy);
        out.push(copy);
        continue;
      }
    } else if (role === "system" && isSyntheticMessage(message)) {
      prev = "ai"; // a bridge stored as a SystemMessage (`bridgeRole: "system"`) stands for the reply it marks
    } else if (role === "ai") {
      openReply(message, unit);
      touched = false;
      prev = "ai";
      lastReply = anchorOf(message, unit);
      const cleaned = ctx.cleaned.get(unit);
      if (cleaned !== undefined) {
        rewritten(cleaned.codes, message, unit, cleaned.message);
        out.push(cleaned.message);
        continue;
      }
    }
    out.push(message);
  }

  if (nextRemoved < removed.length) touched = true;
  const { messages, tailStart } = ctx;
  if (tailStart < messages.length) {
    const first = roleOf(messages[tailStart]);
    if (first === "human") closeTurn(false);
    else if (first === "ai") openReply(messages[tailStart], tailStart);
    for (let i = tailStart; i < messages.length; i++) out.push(messages[i]);
  } else if (ctx.end !== "open") {
    closeTurn(true);
  } else if (!requestMayEnd(prev, out[out.length - 1], touched ? EVERY_RULE : ctx.rules)) {
    // A request the model is to answer never ends on a reply where the provider takes no prefill, nor where the
    // repair made that end.
    const message = continueMessage(anchorOf(out[out.length - 1], out.length - 1), ctx.markers.continueAfterReply);
    insert({ ...patternOf("Z"), message, ...messageRefs(message) });
  }
  return out;
}
