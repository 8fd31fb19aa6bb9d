/**
 * Cancelled runs as they happen in production: a ReAct agent's turn is
 * aborted at a chosen point, then the user sends a new message.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { END, START, StateGraph, type Annotation, type BaseCheckpointSaver } from "@langchain/langgraph";
import type { ProviderProfile } from "../oracle/provider-rejections.js";
import { hangUntilAborted, messagesState, reactGraph, type MessagesField, type ToolFn } from "./react-graph.js";

/**
 * Where the first turn is cancelled: before the LLM's first token, mid-stream,
 * right after the LLM's reply (before any tool starts), while a tool runs, after one of two parallel tools finished, and after all
 * tools finished while the next LLM call starts.
 */
export type StopPoint =
  "before-llm" | "during-llm" | "after-llm" | "during-tools" | "after-one-of-two-parallel-tools" | "after-tools";
export const STOP_POINTS: readonly StopPoint[] = [
  "before-llm",
  "during-llm",
  "after-llm",
  "during-tools",
  "after-one-of-two-parallel-tools",
  "after-tools",
];

import { FIRST_QUESTION, agentModel } from "./agent-model.js";

export { FIRST_QUESTION, agentModel };
export const LOOKUP_RESULT = "Seoul: 12°C, clear";

/**
 * Where the agent runs: as the root graph, as a subgraph node of a parent
 * (namespace `assistant:<taskId>`, a new one each run), or as a
 * `checkpointer: true` subgraph that keeps its own history across runs
 * (namespace `assistant`).
 */
export type Mount = "root" | "subgraph" | "persistent-subgraph";

/** Where the agent runs and how its conversation is stored (the parent's the same way). */
export interface Placement {
  mount?: Mount;
  field?: MessagesField;
}

export function mountAgent(
  builder: ReturnType<typeof reactGraph>["builder"],
  checkpointer: BaseCheckpointSaver,
  { mount = "root", field }: Placement,
) {
  if (mount === "root") return builder.compile({ checkpointer });
  const agent = builder.compile(mount === "persistent-subgraph" ? { checkpointer: true } : {});
  const parent = messagesState("messages", field) as ReturnType<typeof Annotation.Root>;
  return new StateGraph(parent)
    .addNode("assistant", agent)
    .addEdge(START, "assistant")
    .addEdge("assistant", END)
    .compile({ checkpointer });
}

/**
 * The model and tools of a first turn that stops at `stop`: `onStop` is called there, once, with the signal
 * of the model call or tool it stopped in, and the caller cancels the run from it. Later turns run on.
 * `fanOut` is how a ReAct graph must run the tools for `stop` to happen where it says.
 */
export function stoppingParts(
  stop: StopPoint,
  onStop: (signal: AbortSignal | undefined) => void,
  profile: ProviderProfile = "openai",
) {
  let stopped = false;
  const press = (signal?: AbortSignal) => {
    if (stopped) return;
    stopped = true;
    onStop(signal);
  };
  const model = agentModel(
    profile,
    (index, call, signal) => {
      if (stop === "before-llm" && call === 0 && index === 0) press(signal);
      if (stop === "during-llm" && call === 0 && index === 1) press(signal);
      if (stop === "after-tools" && call === 1 && index === 0) press(signal);
    },
    (call) => {
      if (stop === "after-llm" && call === 0) press();
    },
  );
  let lookupDone: () => void = () => {};
  const lookupFinished = new Promise<void>((resolve) => (lookupDone = resolve));
  const tools: Record<string, ToolFn> = {
    search: async (_args, config) => {
      if (config.signal?.aborted) throw new Error("no tool may start after the run was cancelled");
      if (stopped || (stop !== "during-tools" && stop !== "after-one-of-two-parallel-tools")) return "Paris: 15°C";
      if (stop === "after-one-of-two-parallel-tools") await lookupFinished;
      press(config.signal);
      return hangUntilAborted(config.signal);
    },
    lookup: async () => {
      // Let the sibling task's writes reach the saver before search cancels the run.
      setTimeout(lookupDone, 30);
      return LOOKUP_RESULT;
    },
  };
  const fanOut: "node" | "send" = stop === "after-one-of-two-parallel-tools" ? "send" : "node";
  return { model, tools, fanOut };
}

/** {@link stoppingParts} as a ReAct graph builder, its conversation in `field`. */
export function stoppingAgent(
  stop: StopPoint,
  onStop: (signal: AbortSignal | undefined) => void,
  profile: ProviderProfile = "openai",
  field?: MessagesField,
) {
  const { model, tools, fanOut } = stoppingParts(stop, onStop, profile);
  return { builder: reactGraph({ model, tools, fanOut, field }).builder, model };
}

/** A mount alone, or a mount and a messages field. */
const placementOf = (placement: Mount | Placement): Placement =>
  typeof placement === "string" ? { mount: placement } : placement;

/** Runs the first turn on `thread` and cancels it at `stop`. Returns the error the run ended with. */
export async function cancelFirstTurn(
  checkpointer: BaseCheckpointSaver,
  stop: StopPoint,
  thread: string,
  placement: Mount | Placement = "root",
): Promise<unknown> {
  const controller = new AbortController();
  const where = placementOf(placement);
  const { builder } = stoppingAgent(stop, () => controller.abort(), "openai", where.field);
  const graph = mountAgent(builder, checkpointer, where);
  // "sync" durability: every checkpoint is stored before the next step starts, so the thread is
  // settled when the cancelled call returns. With the default "async", a slower saver (Postgres,
  // Redis) may still be writing the last checkpoint, and an immediate next turn would race it.
  return cancelled(`the first turn on ${thread}`, stop, () =>
    graph.invoke(
      { messages: [new HumanMessage(FIRST_QUESTION)] },
      { configurable: { thread_id: thread }, signal: controller.signal, durability: "sync" },
    ),
  );
}

/** Runs `turn`, which `stop` must cancel; returns the error it ended with, and fails if it ran to the end. */
export async function cancelled(what: string, stop: string, turn: () => Promise<unknown>): Promise<unknown> {
  try {
    await turn();
  } catch (error) {
    return error;
  }
  throw new Error(`${what} was expected to be cancelled at ${stop}`);
}

/**
 * `saver` until an input checkpoint is stored: then `stop` is aborted and nothing more is stored, as when the run is
 * cancelled (or its process goes away) right after that checkpoint, whatever the saver's timing.
 */
const stoppingAfterInput = (saver: BaseCheckpointSaver, stop: AbortController) =>
  new Proxy(saver, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop !== "put" && prop !== "putWrites") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        if (stop.signal.aborted) throw new Error("the run was cancelled");
        const stored = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (prop === "put" && (args[2] as { source?: string })?.source === "input") stop.abort();
        return stored;
      };
    },
  });

/**
 * Sends `text` on `thread` through `wrap(saver)` (a `SanitizingCheckpointer`), its run cancelled as soon as its input
 * checkpoint is stored; the parallel tools' graph, as {@link cancelFirstTurn} stops it after one of two.
 */
export async function cancelledAfterInput(
  saver: BaseCheckpointSaver,
  wrap: (saver: BaseCheckpointSaver) => BaseCheckpointSaver,
  thread: string,
  text = "Are you there?",
  field?: MessagesField,
): Promise<unknown> {
  const stop = new AbortController();
  const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
  const graph = reactGraph({ model: agentModel("openai"), tools, fanOut: "send", field }).compile(
    wrap(stoppingAfterInput(saver, stop)),
  );
  return cancelled(`the turn after its input on ${thread}`, "its input checkpoint", () =>
    graph.invoke(
      { messages: [new HumanMessage(text)] },
      { configurable: { thread_id: thread }, signal: stop.signal, durability: "sync" },
    ),
  );
}

/** Sends the next user message on `thread` to an agent backed by a strict `profile` model. */
export async function nextTurn(
  checkpointer: BaseCheckpointSaver,
  profile: ProviderProfile,
  thread: string,
  text = "Thanks, and tomorrow?",
  placement: Mount | Placement = "root",
) {
  const model = agentModel(profile);
  const where = placementOf(placement);
  const { builder } = reactGraph({
    model,
    field: where.field,
    tools: { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT },
  });
  const graph = mountAgent(builder, checkpointer, where);
  const state = await graph.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id: thread } });
  return { messages: state.messages as BaseMessage[], model };
}
