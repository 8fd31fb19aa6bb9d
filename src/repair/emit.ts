import { roleOf } from "../messages/message-view.js";
import type { MarkerTexts } from "./markers.js";
import type { Repair } from "./patterns.js";
import { messageRefs } from "./report.js";
import type { Unit } from "./segment.js";
import { anchorOf, bridgeMessage, closingMessage, type BridgeRole } from "./synthetic.js";
import { humanMayFollow, type TurnState } from "./well-formed.js";

/** What `emit` needs besides the units. */
export interface EmitContext {
  messages: readonly unknown[];
  tailStart: number;
  closeEnd: boolean;
  markers: Readonly<MarkerTexts>;
  bridgeRole: BridgeRole;
  /** How many input messages before each position were removed, to tell moved results from shifted ones. */
  removedBefore: Int32Array;
}

/**
 * Writes the units out in order, each turn as its AIMessage followed by its
 * results in call order, then the untouched tail.
 *
 * - Pattern E: a result that did not directly follow the previous message of
 *   its turn is reported as moved.
 * - Pattern A: a HumanMessage after a HumanMessage gets a marker reply before it.
 * - Pattern C: a HumanMessage (or, when `closeEnd`, the end) after tool results
 *   gets a marker AIMessage before it.
 */
export function emit(units: readonly Unit[], ctx: EmitContext, repairs: Repair[]): unknown[] {
  const out: unknown[] = [];
  const insert = (repair: Omit<Repair, "index" | "action">) => {
    repairs.push({ ...repair, action: "inserted", index: out.length });
    out.push(repair.message);
  };
  const rank = (index: number) => index - ctx.removedBefore[index]!;
  let prev: TurnState = "none";
  let anchor = "";
  const closeTurn = () => {
    if (humanMayFollow(prev)) return;
    const message =
      prev === "human"
        ? bridgeMessage(anchor, ctx.markers.missingReply, ctx.bridgeRole)
        : closingMessage(anchor, ctx.markers.missingReplyAfterTools);
    insert({ kind: prev === "human" ? "A" : "C", message, ...messageRefs(message) });
    prev = "ai";
  };

  for (const unit of units) {
    if (typeof unit !== "number") {
      const { turn } = unit;
      out.push(turn.ai);
      let previous = turn.index;
      for (const result of turn.results) {
        const { message, index, kind } = result!;
        if (index < 0) {
          insert({ kind: kind!, message, ...messageRefs(message) });
          continue;
        }
        if (rank(index) !== rank(previous) + 1) {
          repairs.push({ kind: "E", action: "moved", index: out.length, from: index, message, ...messageRefs(message) });
        }
        out.push(message);
        previous = index;
      }
      prev = "tools";
      anchor = anchorOf(turn.ai, turn.index);
      continue;
    }
    const message = ctx.messages[unit];
    const role = roleOf(message);
    if (role === "human") {
      closeTurn();
      prev = "human";
      anchor = anchorOf(message, unit);
    } else if (role === "ai") {
      prev = "ai";
    }
    out.push(message);
  }

  const { messages, tailStart } = ctx;
  if (tailStart < messages.length) {
    if (roleOf(messages[tailStart]) === "human") closeTurn();
    for (let i = tailStart; i < messages.length; i++) out.push(messages[i]);
  } else if (ctx.closeEnd) {
    closeTurn();
  }
  return out;
}
