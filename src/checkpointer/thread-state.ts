import {
  ERROR,
  INTERRUPT,
  RESUME,
  SCHEDULED,
  TASKS,
  type Checkpoint,
  type CheckpointPendingWrite,
} from "@langchain/langgraph-checkpoint";

// Mirrors @langchain/langgraph's START and ERROR_SOURCE_NODE, which the checkpoint package does not export.
const START = "__start__";
const ERROR_SOURCE_NODE = "__error_source_node__";
const TRIGGER_PREFIX = "branch:to:";
const JOIN_PREFIX = "join:";

/** Writes that record how a task stopped rather than what it produced. */
const NON_OUTPUT_CHANNELS: ReadonlySet<string> = new Set([ERROR, ERROR_SOURCE_NODE, INTERRUPT, RESUME, SCHEDULED]);

/** `Send` packets waiting in `__pregel_tasks`: a list (LangGraph 1.4+), or `[seen, packets]` before 1.4. */
function pendingSends(values: Record<string, unknown>): unknown[] {
  const stored = values[TASKS];
  if (!Array.isArray(stored)) return [];
  // A packet is an object, never a list: a pair of lists is the older format.
  if (stored.length === 2 && Array.isArray(stored[0]) && Array.isArray(stored[1])) return stored[1];
  return stored;
}

/**
 * The node a stored trigger channel starts, if it is one that is set: `branch:to:<node>`, the input on
 * `__start__`, or a complete `join:<a>+<b>:<node>` barrier (an edge from several nodes, stored as the
 * sources seen so far).
 */
function triggeredNode(channel: string, value: unknown): string | undefined {
  if (channel.startsWith(TRIGGER_PREFIX)) return channel.slice(TRIGGER_PREFIX.length);
  if (channel === START) return START;
  if (!channel.startsWith(JOIN_PREFIX) || !Array.isArray(value)) return undefined;
  const end = channel.lastIndexOf(":");
  const sources = channel.slice(JOIN_PREFIX.length, end).split("+");
  return sources.every((source) => value.includes(source)) ? channel.slice(end + 1) : undefined;
}

/** The pending tasks of the checkpoint that a trigger channel starts: each node, with the channel that starts it. */
export function pendingTriggers(checkpoint: Checkpoint): { node: string; channel: string }[] {
  const values = (checkpoint.channel_values ?? {}) as Record<string, unknown>;
  const triggers: { node: string; channel: string }[] = [];
  for (const channel in values) {
    const node = triggeredNode(channel, values[channel]);
    if (node !== undefined) triggers.push({ node, channel });
  }
  return triggers;
}

/**
 * The nodes the pending tasks of the checkpoint run: each node a trigger channel starts (see
 * {@link triggeredNode}), then each `Send` packet's node. A run that reached END leaves none; a cancelled or
 * failed run, or a static breakpoint, always leaves some. (Comparing `channel_versions` with
 * `versions_seen` misleads: a consumed trigger still bumps its version.)
 */
export function pendingNodes(checkpoint: Checkpoint): string[] {
  const values = (checkpoint.channel_values ?? {}) as Record<string, unknown>;
  const nodes = new Set<string>(pendingTriggers(checkpoint).map(({ node }) => node));
  for (const send of pendingSends(values)) {
    const node = (send as { node?: unknown } | null)?.node;
    if (typeof node === "string") nodes.add(node);
  }
  return [...nodes];
}

/** Whether the checkpoint has tasks still to run (see {@link pendingNodes}). */
export function hasPendingTasks(checkpoint: Checkpoint): boolean {
  const values = (checkpoint.channel_values ?? {}) as Record<string, unknown>;
  for (const channel in values) if (triggeredNode(channel, values[channel]) !== undefined) return true;
  return pendingSends(values).length > 0;
}

/**
 * The input an input checkpoint holds on `__start__`, not yet applied: a run that continues the checkpoint applies
 * it first, as LangGraph's `__start__` task. Undefined on any other checkpoint.
 */
export function storedInput(checkpoint: Checkpoint): unknown {
  return (checkpoint.channel_values as Record<string, unknown> | undefined)?.[START];
}

/**
 * Whether a task of this checkpoint is paused at `interrupt()`: it wrote to
 * `__interrupt__` and produced no output. (An interrupt inside a subgraph
 * also leaves such a write on the parent's task.)
 */
export function hasPendingInterrupt(pendingWrites: readonly CheckpointPendingWrite[] | undefined): boolean {
  if (!pendingWrites || pendingWrites.length === 0) return false;
  const interrupted = new Set<string>();
  const produced = new Set<string>();
  for (const [taskId, channel] of pendingWrites) {
    if (channel === INTERRUPT) interrupted.add(taskId);
    else if (!NON_OUTPUT_CHANNELS.has(channel)) produced.add(taskId);
  }
  for (const taskId of interrupted) if (!produced.has(taskId)) return true;
  return false;
}
