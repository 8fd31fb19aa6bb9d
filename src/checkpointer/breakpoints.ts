// Read off a checkpoint as LangGraph's `shouldInterrupt` decides to pause, in every namespace (docs/internals.md).
import { uuid5, type Checkpoint, type CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { assertBreakpointNodes } from "../options/shared-options.js";
import { pendingNodes, pendingTriggers } from "./thread-state.js";

/** As `compile()` and a run's options take them. */
export type BreakpointNodes = readonly string[] | "*";

export interface Breakpoints {
  interruptBefore?: BreakpointNodes;
  interruptAfter?: BreakpointNodes;
}

// LangGraph's INTERRUPT channel: the channel versions the thread had when it last resumed.
const INTERRUPT = "__interrupt__";

/** @internal */
export function assertBreakpoints({ interruptBefore, interruptAfter }: Breakpoints): Breakpoints {
  if (interruptBefore !== undefined) assertBreakpointNodes("interruptBefore", interruptBefore);
  if (interruptAfter !== undefined) assertBreakpointNodes("interruptAfter", interruptAfter);
  return { interruptBefore, interruptAfter };
}

/** `undefined` unless they name a node, so no read looks for a pause. @internal */
export function namingNodes(breakpoints: Breakpoints): Breakpoints | undefined {
  return hasNodes(breakpoints.interruptBefore) || hasNodes(breakpoints.interruptAfter) ? breakpoints : undefined;
}

const hasNodes = (nodes: BreakpointNodes | undefined): nodes is BreakpointNodes =>
  nodes === "*" || (nodes !== undefined && nodes.length > 0);

/** LangGraph's first condition. */
function changedSincePause(checkpoint: Checkpoint): boolean {
  const seen = checkpoint.versions_seen?.[INTERRUPT] ?? {};
  const versions = checkpoint.channel_versions ?? {};
  // LangGraph compares versions with `>`, numbers and strings alike; an unseen channel counts as new.
  for (const channel in versions) if (seen[channel] === undefined || versions[channel]! > seen[channel]!) return true;
  return false;
}

const matches = (nodes: BreakpointNodes, ran: readonly string[]): boolean =>
  nodes === "*" ? ran.some((node) => node !== "__start__") : ran.some((node) => nodes.includes(node));

export type ReadCheckpoint = (configurable: Record<string, unknown>) => Promise<CheckpointTuple | undefined>;

/** A pending task of a node it pauses before, or a task that wrote it (the parent's) of a node it pauses after. */
async function pausedHere(tuple: CheckpointTuple, breakpoints: Breakpoints, read: ReadCheckpoint): Promise<boolean> {
  if (!changedSincePause(tuple.checkpoint)) return false;
  const { interruptBefore, interruptAfter } = breakpoints;
  if (hasNodes(interruptBefore) && matches(interruptBefore, pendingNodes(tuple.checkpoint))) return true;
  if (!hasNodes(interruptAfter) || tuple.metadata?.source !== "loop" || !tuple.parentConfig) return false;
  const before = await read(tuple.parentConfig.configurable ?? {});
  return before !== undefined && matches(interruptAfter, pendingNodes(before.checkpoint));
}

// LangGraph's marker of a task a trigger channel starts, and its namespace separators.
const PULL = "__pregel_pull";
const NS_SEPARATOR = "|";
const NS_END = ":";
/** Each level costs a read; LangGraph nests no deeper in practice. */
const MAX_DEPTH = 4;

/** As LangGraph names them (`_prepareSingleTask`); a task a `Send` started is not among them. */
function pendingSubgraphNamespaces(tuple: CheckpointTuple): string[] {
  const parentNs = String(tuple.config.configurable?.checkpoint_ns ?? "");
  const step = String((tuple.metadata?.step ?? 0) + 1);
  return pendingTriggers(tuple.checkpoint).map(({ node, channel }) => {
    const ns = parentNs === "" ? node : `${parentNs}${NS_SEPARATOR}${node}`;
    return `${ns}${NS_END}${uuid5(JSON.stringify([ns, step, node, PULL, [channel]]), tuple.checkpoint.id)}`;
  });
}

/** A subgraph's newest checkpoint shows its pause, which its parent's does not. */
export async function pausedAtBreakpoint(
  tuple: CheckpointTuple,
  breakpoints: Breakpoints | undefined,
  read: ReadCheckpoint,
  depth = 0,
): Promise<boolean> {
  if (breakpoints === undefined) return false;
  if (await pausedHere(tuple, breakpoints, read)) return true;
  if (depth >= MAX_DEPTH) return false;
  const threadId = tuple.config.configurable?.thread_id;
  for (const checkpoint_ns of pendingSubgraphNamespaces(tuple)) {
    const child = await read({ thread_id: threadId, checkpoint_ns });
    if (child !== undefined && (await pausedAtBreakpoint(child, breakpoints, read, depth + 1))) return true;
  }
  return false;
}
