// A turn of the rebuild: an AIMessage with calls, and the answer each call goes out with.
import type { ToolCallRef } from "../../messages/message-view.js";

/** A result from the input assigned to its call: the message and its position in the input. */
export interface KeptResult {
  message: unknown;
  index: number;
}

/** A pattern as a report names it; its unit, where the walk has one. */
export interface PatternRef {
  readonly kind: string;
  readonly code: string;
}

/** A result the repair inserts for an unanswered call. */
export interface InsertedResult {
  message: unknown;
  /** The pattern it repairs (a placeholder, or a recovered result). */
  pattern: PatternRef;
  /** For a recovered result inserted as a copy under a new call id: the stored one. */
  original?: unknown;
}

/** The answer a call goes out with. */
export type ToolResult = KeptResult | InsertedResult;

/** An AIMessage with tool calls and the result found in the input for each call (`undefined` where none was). */
export interface Turn {
  /** The AIMessage, or its copy the reply rules wrote. */
  ai: unknown;
  index: number;
  calls: readonly ToolCallRef[];
  /** The id each call goes out with, when some call is renamed (see `planCallIds`); else the calls keep theirs. */
  renamed: readonly string[] | undefined;
  results: (KeptResult | undefined)[];
}

/** The id the call in `slot` of `turn` goes out with. */
export const idOut = (turn: Turn, slot: number): string => turn.renamed?.[slot] ?? turn.calls[slot]!.id;
