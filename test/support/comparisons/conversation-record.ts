/**
 * Recording a clean multi-turn conversation so two runs of it, on the raw saver and through the sanitizer, can be
 * compared exactly: every request each scripted model received, in the order the models were called, and after
 * each turn the thread's state and history as the app reads them.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { StrictChatModel, type StrictChatModelOptions } from "../graphs/strict-chat-model.js";

/** One model call: which model, and the messages it was sent. */
export interface ModelRequest {
  model: string;
  messages: unknown;
}

/**
 * A JSON copy of `value`, taken now: messages become `{ class, ...fields }` (with their ids), and nothing else
 * changes. A later mutation of the live objects does not reach the copy.
 */
export function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value ?? null, (_key, v) => {
      // Messages serialize (toJSON) as LangChain constructors: keep the class name and the fields.
      if (v && typeof v === "object" && v.lc === 1 && v.type === "constructor" && Array.isArray(v.id))
        return { class: v.id.at(-1), ...v.kwargs };
      return v;
    }),
  );
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * `value` with every UUID (message, tool call, run, checkpoint and task ids, random per run) replaced by
 * `<id N>`, numbered by first appearance. Two runs that create the same ids in the same places, and keep them
 * where they were, read the same; an id that changes, or a message that appears in one run only, does not.
 */
export function canonicalIds(value: unknown): unknown {
  const ids = new Map<string, string>();
  const text = JSON.stringify(value).replace(UUID, (id) => {
    const key = id.toLowerCase();
    if (!ids.has(key)) ids.set(key, `<id ${ids.size + 1}>`);
    return ids.get(key)!;
  });
  return JSON.parse(text);
}

/**
 * The models of one run, all logging into one list in call order. Each is a `StrictChatModel` (as strict as
 * `profile`), whose `script` decides the reply. Tool call ids are deterministic per run and unique in the thread,
 * as a provider's are: `<name>_<call>_<index>`.
 */
export function recordingModels(profile: StrictChatModelOptions["profile"]) {
  const requests: ModelRequest[] = [];
  return {
    requests,
    model(name: string, script: (messages: BaseMessage[]) => ReturnType<StrictChatModelOptions["script"]>) {
      return new StrictChatModel({
        profile,
        tokenDelayMs: 0,
        script: (messages, call) => {
          requests.push({ model: name, messages: plain(messages) });
          const reply = script(messages);
          const toolCalls = reply.toolCalls?.map((tc, i) => ({ id: `${name}_${call}_${i}`, ...tc }));
          return { ...reply, toolCalls };
        },
      });
    },
  };
}

/** What the app exposes of its thread: `getState` and `getStateHistory` of the graph that runs. */
export interface ThreadReader {
  getState(config: Record<string, unknown>): Promise<unknown>;
  getStateHistory(config: Record<string, unknown>): AsyncIterable<unknown>;
}

/** A state snapshot without its wall-clock `createdAt`; everything else is compared. */
function snapshotFields(snapshot: unknown) {
  const { values, next, config, parentConfig, metadata, tasks } = snapshot as Record<string, unknown>;
  return { values, next, config, parentConfig, metadata, tasks };
}

/** What the thread reads as after a turn: `getState`'s values and next, and the whole `getStateHistory`. */
export async function readThread(graph: ThreadReader, config: Record<string, unknown>) {
  const state = snapshotFields(await graph.getState(config));
  const history: unknown[] = [];
  for await (const snapshot of graph.getStateHistory(config)) history.push(snapshotFields(snapshot));
  return plain({ state: { values: state.values, next: state.next }, history }) as { state: unknown; history: unknown };
}
