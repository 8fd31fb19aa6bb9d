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

const NON_OUTPUT_CHANNELS: ReadonlySet<string> = new Set([ERROR, ERROR_SOURCE_NODE, INTERRUPT, RESUME, SCHEDULED]);

/** A list since LangGraph 1.4, `[seen, packets]` before. */
function pendingSends(values: Record<string, unknown>): unknown[] {
  const stored = values[TASKS];
  if (!Array.isArray(stored)) return [];
  if (stored.length === 2 && Array.isArray(stored[0]) && Array.isArray(stored[1])) return stored[1];
  return stored;
}

/** `branch:to:<node>`, the input on `__start__`, or a complete `join:<a>+<b>:<node>` barrier. */
function triggeredNode(channel: string, value: unknown): string | undefined {
  if (channel.startsWith(TRIGGER_PREFIX)) return channel.slice(TRIGGER_PREFIX.length);
  if (channel === START) return START;
  if (!channel.startsWith(JOIN_PREFIX) || !Array.isArray(value)) return undefined;
  const end = channel.lastIndexOf(":");
  const sources = channel.slice(JOIN_PREFIX.length, end).split("+");
  return sources.every((source) => value.includes(source)) ? channel.slice(end + 1) : undefined;
}

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
 * A run that reached END leaves none; a cancelled or failed run, or a static breakpoint, always leaves some.
 * (`channel_versions` against `versions_seen` misleads: a consumed trigger still bumps its version.)
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

/** Whether the checkpoint has tasks still to run: a run stopped before END. */
export function hasPendingTasks(checkpoint: Checkpoint): boolean {
  const values = (checkpoint.channel_values ?? {}) as Record<string, unknown>;
  for (const channel in values) if (triggeredNode(channel, values[channel]) !== undefined) return true;
  return pendingSends(values).length > 0;
}

/** Not yet applied: a run continuing an input checkpoint applies it first, as LangGraph's `__start__` task. */
export function storedInput(checkpoint: Checkpoint): unknown {
  return (checkpoint.channel_values as Record<string, unknown> | undefined)?.[START];
}

/** A task wrote to `__interrupt__` and produced no output (a subgraph's interrupt leaves one on the parent's too). */
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
