/** Driving an Agent Server through `@langchain/langgraph-sdk`, as apps do: inputs, streams, states. */
import type { Client } from "@langchain/langgraph-sdk";

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
export const finalMessages = (parts: StreamPart[]) => messagesOf(parts.filter((p) => p.event === "values").at(-1)!.data);
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
 * The approval agent (test/support/approval-agent.ts) on a new thread: pauses at `interrupt()`, is resumed with
 * "approve". Returns what a client sees along the way, comparable between servers and checkpointers.
 */
export async function approvalRoundTrip(client: Client, assistantId: string) {
  const { thread_id } = await client.threads.create();
  const paused = await collect(client.runs.stream(thread_id, assistantId, { input: human("Email Bob"), streamMode: ["values", "updates"] }));
  const waiting = await client.threads.getState(thread_id);
  const resumed = await collect(client.runs.stream(thread_id, assistantId, { command: { resume: { action: "approve" } }, streamMode: ["values"] }));
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
