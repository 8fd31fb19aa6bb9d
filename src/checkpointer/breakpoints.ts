/**
 * Static breakpoints (`interruptBefore` / `interruptAfter`), read off a stored checkpoint the way
 * LangGraph's own `shouldInterrupt` decides to pause: a breakpoint node is about to run (or has just run),
 * and some channel changed since the thread last resumed from a pause. They apply in every namespace: a subgraph
 * paused at one leaves its parent's checkpoint with a pending task and nothing else to show for it.
 */
import { uuid5, type Checkpoint, type CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { assertBreakpointNodes } from "../options.js";
import { pendingNodes, pendingTriggers } from "./thread-state.js";

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

/** Validates breakpoints given as options, and returns them as given. @internal */
export function assertBreakpoints({ interruptBefore, interruptAfter }: Breakpoints): Breakpoints {
  if (interruptBefore !== undefined) assertBreakpointNodes("interruptBefore", interruptBefore);
  if (interruptAfter !== undefined) assertBreakpointNodes("interruptAfter", interruptAfter);
  return { interruptBefore, interruptAfter };
}

/** `breakpoints` when they name a node; `undefined` otherwise, so that no read looks for a pause. @internal */
export function namingNodes(breakpoints: Breakpoints): Breakpoints | undefined {
  return hasNodes(breakpoints.interruptBefore) || hasNodes(breakpoints.interruptAfter) ? breakpoints : undefined;
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

/** Reads the newest checkpoint of a namespace of the thread, or a checkpoint by its config. */
export type ReadCheckpoint = (configurable: Record<string, unknown>) => Promise<CheckpointTuple | undefined>;

/**
 * Whether the graph paused at a static breakpoint when it stored `tuple`: its pending tasks include a node
 * it pauses before, or the tasks that wrote it (the parent's pending tasks, read only when needed) include a
 * node it pauses after.
 */
async function pausedHere(tuple: CheckpointTuple, breakpoints: Breakpoints, read: ReadCheckpoint): Promise<boolean> {
  if (!changedSincePause(tuple.checkpoint)) return false;
  const { interruptBefore, interruptAfter } = breakpoints;
  if (hasNodes(interruptBefore) && matches(interruptBefore, pendingNodes(tuple.checkpoint))) return true;
  if (!hasNodes(interruptAfter) || tuple.metadata?.source !== "loop" || !tuple.parentConfig) return false;
  const before = await read(tuple.parentConfig.configurable ?? {});
  return before !== undefined && matches(interruptAfter, pendingNodes(before.checkpoint));
}

// LangGraph's marker of a task a trigger channel starts, and the separators of its checkpoint namespaces.
const PULL = "__pregel_pull";
const NS_SEPARATOR = "|";
const NS_END = ":";
/** How deep subgraphs are followed: LangGraph nests them no deeper in practice, and each level costs a read. */
const MAX_DEPTH = 4;

/**
 * The namespaces the subgraphs of the pending tasks of `tuple` store their checkpoints in, as LangGraph names them
 * when it runs each task: `<node>:<task id>` under the parent's namespace, the task id derived from the
 * checkpoint, the step and the trigger (`_prepareSingleTask`). A task a `Send` started is not among them.
 */
function pendingSubgraphNamespaces(tuple: CheckpointTuple): string[] {
  const parentNs = String(tuple.config.configurable?.checkpoint_ns ?? "");
  const step = String((tuple.metadata?.step ?? 0) + 1);
  return pendingTriggers(tuple.checkpoint).map(({ node, channel }) => {
    const ns = parentNs === "" ? node : `${parentNs}${NS_SEPARATOR}${node}`;
    return `${ns}${NS_END}${uuid5(JSON.stringify([ns, step, node, PULL, [channel]]), tuple.checkpoint.id)}`;
  });
}

/**
 * Whether the graph paused at a static breakpoint when it stored `tuple`, in its own namespace or in a subgraph
 * one of its pending tasks runs (the breakpoint given to the subgraph's `compile()`, or to the run): the subgraph's
 * newest checkpoint shows the pause, which its parent's does not.
 */
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
