/**
 * What a chat front end asks of the server for a thread, as the Agent Server's routes offer it (and the SDK calls
 * them): start a run (at a checkpoint), stop it, read the state and the history, update the state. The clients
 * (clients.ts) are written against it, so one client's recipe drives a graph in process or a server through the SDK.
 */
import type { BaseMessage } from "@langchain/core/messages";

/** A message as the server sends it over the wire: a plain object, never a class. */
export interface WireMessage {
  type: string;
  id?: string;
  content: unknown;
  name?: string;
  tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[];
  tool_call_id?: string;
  status?: string;
}

/** A checkpoint as `threads.getState` / `getHistory` return it. */
export interface Snapshot {
  checkpointId: string;
  parentCheckpointId: string | undefined;
  messages: WireMessage[];
  next: string[];
  source: string | undefined;
}

export type StreamMode = "values" | "messages" | "updates";

/** One event of a run's stream. */
export type StreamEvent =
  | { mode: "values"; messages: WireMessage[]; checkpoint?: { id: string; parentId?: string } }
  | { mode: "messages"; chunk: WireMessage }
  | { mode: "updates"; messages: WireMessage[] };

export interface RunOptions {
  /** Run from this checkpoint (a fork) instead of the thread's latest. */
  checkpointId?: string;
  /** A `Command({ resume })`. */
  resume?: unknown;
  streamMode: readonly StreamMode[];
  onEvent?(event: StreamEvent): void;
}

/** How a run ended: to its end, stopped by the client, or failed (the provider's rejection). */
export type RunEnd = { ended: "done" } | { ended: "stopped" } | { ended: "failed"; error: unknown };

export interface ThreadApi {
  run(input: unknown, options: RunOptions): Promise<RunEnd>;
  /** Cancels the run in flight, as the client's Stop does (an aborted request the server cancels on, `runs.cancel`). */
  stop(): void;
  /** Newest first. */
  history(limit: number): Promise<Snapshot[]>;
  state(): Promise<Snapshot>;
  /** The new checkpoint's id. */
  updateState(messages: unknown[], options: { checkpointId?: string; asNode?: string }): Promise<string>;
}

/** The wire form of a message the graph holds. */
export function wire(message: BaseMessage | WireMessage): WireMessage {
  const m = message as BaseMessage & WireMessage;
  const out: WireMessage = { type: typeof m.getType === "function" ? m.getType() : m.type, content: m.content };
  if (m.id !== undefined) out.id = m.id;
  if (m.name !== undefined) out.name = m.name;
  const calls = (m as { tool_calls?: WireMessage["tool_calls"] }).tool_calls;
  if (calls !== undefined && calls.length > 0) out.tool_calls = calls.map(({ id, name, args }) => ({ id, name, args }));
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.status !== undefined) out.status = m.status;
  return out;
}

/** What the in-process thread needs of a compiled graph or a `createAgent` agent. */
export interface RunnableThreadGraph {
  stream(input: unknown, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: Record<string, unknown>): Promise<StateLike>;
  getStateHistory(config: Record<string, unknown>, options?: { limit?: number }): AsyncIterable<StateLike>;
  updateState(
    config: Record<string, unknown>,
    values: unknown,
    asNode?: string,
  ): Promise<{ configurable?: Record<string, unknown> }>;
}

interface StateLike {
  values: { messages?: BaseMessage[] };
  next: string[];
  config: { configurable?: Record<string, unknown> };
  parentConfig?: { configurable?: Record<string, unknown> };
  metadata?: { source?: string };
}

const snapshotOf = (state: StateLike): Snapshot => ({
  checkpointId: String(state.config.configurable?.checkpoint_id),
  parentCheckpointId: state.parentConfig?.configurable?.checkpoint_id as string | undefined,
  messages: (state.values.messages ?? []).map(wire),
  next: state.next,
  source: state.metadata?.source,
});

function eventOf(mode: string, chunk: unknown): StreamEvent | undefined {
  if (mode === "values") return { mode, messages: ((chunk as StateLike["values"]).messages ?? []).map(wire) };
  if (mode === "messages") return { mode, chunk: wire((chunk as [BaseMessage])[0]) };
  if (mode !== "updates") return undefined;
  const outputs = Object.values(chunk as Record<string, StateLike["values"] | null>);
  return { mode, messages: outputs.flatMap((output) => (output?.messages ?? []).map(wire)) };
}

/**
 * A thread of `graph` run in this process, as the Agent Server runs it: `stop` aborts the run (the server does so on
 * `runs.cancel` and when a client drops a stream sent with `onDisconnect: "cancel"`), every run is `durability: "sync"`.
 * `runner` runs the runs (an agent's own `stream`), `graph` answers reads and updates (its compiled graph).
 */
export function inProcessThread(
  runner: Pick<RunnableThreadGraph, "stream">,
  graph: Omit<RunnableThreadGraph, "stream">,
  threadId: string,
  command: (resume: unknown) => unknown,
): ThreadApi {
  let controller: AbortController | undefined;
  const config = (checkpointId?: string) => ({
    configurable: { thread_id: threadId, ...(checkpointId === undefined ? {} : { checkpoint_id: checkpointId }) },
  });
  return {
    async run(input, { checkpointId, resume, streamMode, onEvent }) {
      const run = (controller = new AbortController());
      try {
        const options = {
          ...config(checkpointId),
          signal: run.signal,
          durability: "sync",
          streamMode: [...streamMode],
        };
        const stream = await runner.stream(resume === undefined ? input : command(resume), options);
        for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
          const event = eventOf(mode, chunk);
          if (event) onEvent?.(event);
        }
        return { ended: "done" };
      } catch (error) {
        return run.signal.aborted ? { ended: "stopped" } : { ended: "failed", error };
      }
    },
    stop: () => controller?.abort(),
    async history(limit) {
      const states: Snapshot[] = [];
      for await (const state of graph.getStateHistory(config(), { limit })) states.push(snapshotOf(state));
      return states;
    },
    state: async () => snapshotOf(await graph.getState(config())),
    async updateState(messages, { checkpointId, asNode }) {
      const updated = await graph.updateState(config(checkpointId), { messages }, asNode);
      return String(updated.configurable?.checkpoint_id);
    },
  };
}
