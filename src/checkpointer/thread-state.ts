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

/** Writes that record how a task stopped rather than what it produced. */
const NON_OUTPUT_CHANNELS: ReadonlySet<string> = new Set([ERROR, ERROR_SOURCE_NODE, INTERRUPT, RESUME, SCHEDULED]);

/**
 * Whether the checkpoint has tasks still to run: a node trigger
 * (`branch:to:<node>`, or the input on `__start__`) that no later checkpoint
 * consumed, or `Send` packets in `__pregel_tasks`. A run that reached END
 * leaves none; a cancelled or failed run, or a static breakpoint, always does.
 * (Comparing `channel_versions` with `versions_seen` misleads: a consumed
 * trigger still bumps its version.)
 */
export function hasPendingTasks(checkpoint: Checkpoint): boolean {
  const values = checkpoint.channel_values ?? {};
  for (const channel in values) {
    if (channel.startsWith(TRIGGER_PREFIX) || channel === START) return true;
  }
  const sends = (values as Record<string, unknown>)[TASKS];
  return Array.isArray(sends) && sends.length > 0;
}

/**
 * The nodes the pending tasks of the checkpoint run (see {@link hasPendingTasks}): each triggered node once,
 * then each `Send` packet's node. The input on `__start__` names `__start__`.
 */
export function pendingNodes(checkpoint: Checkpoint): string[] {
  const values = (checkpoint.channel_values ?? {}) as Record<string, unknown>;
  const nodes = new Set<string>();
  for (const channel in values) {
    if (channel.startsWith(TRIGGER_PREFIX)) nodes.add(channel.slice(TRIGGER_PREFIX.length));
    else if (channel === START) nodes.add(START);
  }
  const sends = values[TASKS];
  if (Array.isArray(sends)) {
    for (const send of sends) {
      const node = (send as { node?: unknown } | null)?.node;
      if (typeof node === "string") nodes.add(node);
    }
  }
  return [...nodes];
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
