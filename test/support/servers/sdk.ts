/** Driving an Agent Server through `@langchain/langgraph-sdk`, as apps do: inputs, streams, states. */
import type { Client } from "@langchain/langgraph-sdk";
import { FIRST_QUESTION } from "../graphs/scenarios.js";

export interface StreamPart {
  event: string;
  data: unknown;
}

/** A message as the server sends it over the wire. */
export interface WireMessage {
  type: string;
  id?: string;
  content: unknown;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

export const human = (content: string) => ({ messages: [{ type: "human", content }] });
export const messagesOf = (values: unknown) => (values as { messages: WireMessage[] }).messages;
/** The messages of a run's last `values` part. */
export const finalMessages = (parts: StreamPart[]) =>
  messagesOf(parts.filter((p) => p.event === "values").at(-1)!.data);
export const errorsOf = (parts: StreamPart[]) => parts.filter((p) => p.event === "error");

/** Streams a run to its end, collecting every part (an aborted stream rejects). */
export async function collect(parts: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const out: StreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

/** `[next, message types]` of each state of a history, for comparing histories. */
export const historyShapes = (states: { values: unknown; next: string[] }[]) =>
  states.map((s) => [s.next, messagesOf(s.values)?.map((m) => m.type) ?? []]);

/**
 * The approval agent (test/support/graphs/approval-agent.ts) on a new thread: pauses at `interrupt()`, is resumed with
 * "approve". Returns what a client sees along the way, comparable between servers and checkpointers.
 */
export async function approvalRoundTrip(client: Client, assistantId: string) {
  const { thread_id } = await client.threads.create();
  const paused = await collect(
    client.runs.stream(thread_id, assistantId, { input: human("Email Bob"), streamMode: ["values", "updates"] }),
  );
  const waiting = await client.threads.getState(thread_id);
  const resumed = await collect(
    client.runs.stream(thread_id, assistantId, { command: { resume: { action: "approve" } }, streamMode: ["values"] }),
  );
  const done = await client.threads.getState(thread_id);
  return {
    interruptUpdate: paused.filter((p) => p.event === "updates").map((p) => Object.keys(p.data as object)),
    next: waiting.next,
    interrupts: waiting.tasks.flatMap((t) => t.interrupts.map((i) => i.value)),
    waitingMessages: messagesOf(waiting.values).map((m) => [m.type, m.content]),
    resumedErrors: errorsOf(resumed),
    doneMessages: messagesOf(done.values).map((m) => [m.type, m.content]),
    doneNext: done.next,
  };
}

/** Options of {@link firstTurnMidTool}. */
export interface FirstTurnOptions {
  signal?: AbortSignal;
  onDisconnect?: "cancel";
  /** Passed to the graph as `configurable.search_ms`. */
  searchMs?: number;
}

/**
 * Starts the first turn (FIRST_QUESTION) on a new thread and returns once the model has asked for its tools (its
 * slow `search` tool is then running), with the run's id and the rest of its stream.
 */
export async function firstTurnMidTool(client: Client, assistant: string, options: FirstTurnOptions = {}) {
  const { thread_id } = await client.threads.create();
  const parts = client.runs.stream(thread_id, assistant, {
    input: human(FIRST_QUESTION),
    streamMode: ["updates"],
    streamSubgraphs: true,
    config: { configurable: options.searchMs === undefined ? {} : { search_ms: options.searchMs } },
    signal: options.signal,
    onDisconnect: options.onDisconnect,
  });
  const stream = parts[Symbol.asyncIterator]();
  let run_id = "";
  for (;;) {
    const { value, done } = await stream.next();
    if (done) throw new Error(`the first turn on ${assistant} ended before its tools started`);
    const part = value as StreamPart;
    if (part.event === "metadata") run_id = (part.data as { run_id: string }).run_id;
    if (part.event.startsWith("updates") && JSON.stringify(part.data).includes('"name":"search"')) break;
  }
  return { thread_id, run_id, rest: { [Symbol.asyncIterator]: () => stream } as AsyncIterable<StreamPart> };
}

/** Cancels the first turn mid-tool through the API, as a stop button backed by `runs.cancel` does. */
export async function cancelledThread(client: Client, assistant: string) {
  const { thread_id, run_id, rest } = await firstTurnMidTool(client, assistant);
  await client.runs.cancel(thread_id, run_id, true, "interrupt");
  await collect(rest);
  return thread_id;
}
