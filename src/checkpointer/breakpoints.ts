/**
 * Static breakpoints (`interruptBefore` / `interruptAfter`), read off a stored checkpoint the way
 * LangGraph's own `shouldInterrupt` decides to pause: a breakpoint node is about to run (or has just run),
 * and some channel changed since the thread last resumed from a pause.
 */
import type { Checkpoint, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { assertBreakpointNodes } from "../options.js";
import { pendingNodes } from "./thread-state.js";

/** The nodes a graph pauses before or after, as `compile()` and a run's options take them. */
export type BreakpointNodes = readonly string[] | "*";

/** A graph's static breakpoints. */
export interface Breakpoints {
  /** Nodes the graph pauses before (`compile({ interruptBefore })`). */
  interruptBefore?: BreakpointNodes;
  /** Nodes the graph pauses after (`compile({ interruptAfter })`). */
  interruptAfter?: BreakpointNodes;
}

// LangGraph's INTERRUPT channel: the versions of the channels the thread had when it last resumed.
const INTERRUPT = "__interrupt__";

/** Validates breakpoints given as options; `undefined` when they name no node. @internal */
export function resolveBreakpoints(breakpoints: Breakpoints): Breakpoints | undefined {
  const { interruptBefore, interruptAfter } = breakpoints;
  if (interruptBefore !== undefined) assertBreakpointNodes("interruptBefore", interruptBefore);
  if (interruptAfter !== undefined) assertBreakpointNodes("interruptAfter", interruptAfter);
  if (!hasNodes(interruptBefore) && !hasNodes(interruptAfter)) return undefined;
  return { interruptBefore, interruptAfter };
}

const hasNodes = (nodes: BreakpointNodes | undefined): nodes is BreakpointNodes =>
  nodes === "*" || (nodes !== undefined && nodes.length > 0);

/** Whether some channel changed since the thread last resumed from a pause (LangGraph's first condition). */
function changedSincePause(checkpoint: Checkpoint): boolean {
  const seen = checkpoint.versions_seen?.[INTERRUPT] ?? {};
  const versions = checkpoint.channel_versions ?? {};
  // LangGraph compares versions with `>`, numbers and strings alike; an unseen channel counts as new.
  for (const channel in versions) if (seen[channel] === undefined || versions[channel]! > seen[channel]!) return true;
  return false;
}

const matches = (nodes: BreakpointNodes, ran: readonly string[]): boolean =>
  nodes === "*" ? ran.some((node) => node !== "__start__") : ran.some((node) => nodes.includes(node));

/**
 * Whether the graph paused at a static breakpoint when it stored `tuple`: its pending tasks include a node
 * it pauses before, or the tasks that wrote it (the parent's pending tasks, read through `parent` only when
 * needed) include a node it pauses after.
 */
export async function pausedAtBreakpoint(
  tuple: CheckpointTuple,
  breakpoints: Breakpoints | undefined,
  parent: () => Promise<CheckpointTuple | undefined>,
): Promise<boolean> {
  if (breakpoints === undefined || !changedSincePause(tuple.checkpoint)) return false;
  const { interruptBefore, interruptAfter } = breakpoints;
  if (hasNodes(interruptBefore) && matches(interruptBefore, pendingNodes(tuple.checkpoint))) return true;
  if (!hasNodes(interruptAfter) || tuple.metadata?.source !== "loop") return false;
  const before = await parent();
  return before !== undefined && matches(interruptAfter, pendingNodes(before.checkpoint));
}
