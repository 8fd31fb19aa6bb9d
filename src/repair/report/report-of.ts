import { idOf, toolCallIdOf } from "../../messages/message-view.js";
import type { PatternRef } from "../walk/turn.js";
import type { PatternId, Repair, RepairAction, RepairKind } from "./catalog.js";

/**
 * The {@link Repair} of `unit` for `message`, with the ids it carries. Built field by field, not spread: on Node 20
 * an object made by a spread takes about a microsecond for each property added after it, a cost per repair.
 */
export function reportOf(
  unit: PatternRef,
  action: RepairAction,
  index: number,
  message: unknown,
  from?: number,
  original?: unknown,
): Repair {
  const repair: Repair = { kind: unit.kind as RepairKind, code: unit.code as PatternId, action, index, message };
  if (from !== undefined) repair.from = from;
  if (original !== undefined) repair.original = original;
  const messageId = idOf(message);
  if (messageId !== undefined) repair.messageId = messageId;
  const toolCallId = toolCallIdOf(message);
  if (toolCallId !== undefined) repair.toolCallId = toolCallId;
  return repair;
}
