/**
 * The scenario's agent built as apps build it today: with `createAgent` from `langchain` (v1), or with
 * `createDeepAgent` from `deepagents` (which adds its own middleware, PatchToolCalls among them).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createDeepAgent } from "deepagents";
import { createAgent, createMiddleware, tool, type AgentMiddleware } from "langchain";
import { z } from "zod";
import type { ToolFn } from "./react-graph.js";
import { FIRST_QUESTION, LOOKUP_RESULT, cancelled, stoppingParts, type StopPoint } from "./scenarios.js";
import type { StrictChatModel } from "./strict-chat-model.js";

export type AgentKind = "createAgent" | "createDeepAgent";

/** What the tests use of either agent. */
export interface Agent {
  invoke(
    input: unknown,
    config: Record<string, unknown>,
  ): Promise<{ messages: BaseMessage[]; __interrupt__?: unknown[] }>;
  stream(input: unknown, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  graph: {
    getState(config: Record<string, unknown>): Promise<{ values: { messages: BaseMessage[] }; next: string[] }>;
  };
}

/** The scenario's tool functions as LangChain tools; the tool's config carries the run's signal. */
export const langchainTools = (fns: Record<string, ToolFn>) =>
  Object.entries(fns).map(([name, fn]) =>
    tool((args, config) => fn(args, config), {
      name,
      description: `The weather of a city (${name}).`,
      schema: z.object({ city: z.string() }),
    }),
  );

export interface AgentOptions {
  /** A strict fake model (see `agentModel`) or a real provider client. */
  model: BaseChatModel;
  tools?: Record<string, ToolFn>;
  checkpointer: BaseCheckpointSaver;
  middleware?: AgentMiddleware[];
  /** Tools that pause for approval: deepagents' own option (createAgent takes `humanInTheLoopMiddleware`). */
  interruptOn?: Record<string, boolean>;
}

/** Builds the agent of `kind`. */
export function buildAgent(
  kind: AgentKind,
  { model, tools = calmTools, checkpointer, middleware = [], interruptOn }: AgentOptions,
): Agent {
  const params = { model, tools: langchainTools(tools), checkpointer };
  if (kind === "createDeepAgent") return createDeepAgent({ ...params, middleware, interruptOn }) as unknown as Agent;
  return createAgent({ ...params, middleware }) as unknown as Agent;
}

/** A request-time trim as apps write it: the first message and the last three, whatever they are. */
export const keepFirstAndLastThree = createMiddleware({
  name: "KeepFirstAndLastThree",
  wrapModelCall: (request, handler) =>
    handler({
      ...request,
      messages: request.messages.length <= 4 ? request.messages : [request.messages[0]!, ...request.messages.slice(-3)],
    }),
});

/** Tools that answer at once. */
export const calmTools: Record<string, ToolFn> = {
  search: (args) => `${String(args.city)}: 15°C`,
  lookup: () => LOOKUP_RESULT,
};

export const threadConfig = (thread: string, extra: Record<string, unknown> = {}) => ({
  configurable: { thread_id: thread, ...extra },
});

/**
 * Runs the first turn on `thread`, streaming tokens as a chat UI does, and cancels it at `stop`.
 * Returns the error the run ended with.
 */
export async function cancelAgentTurn(
  kind: AgentKind,
  checkpointer: BaseCheckpointSaver,
  stop: StopPoint,
  thread: string,
): Promise<unknown> {
  const controller = new AbortController();
  const { model, tools } = stoppingParts(stop, () => controller.abort());
  const agent = buildAgent(kind, { model, tools, checkpointer });
  // "sync" durability: the thread is settled when the cancelled call returns (see cancelFirstTurn).
  const config = { ...threadConfig(thread), signal: controller.signal, durability: "sync", streamMode: "messages" };
  return cancelled(`the first turn on ${thread}`, stop, async () => {
    for await (const _ of await agent.stream({ messages: [new HumanMessage(FIRST_QUESTION)] }, config));
  });
}

/** Sends the next user message on `thread` to the agent of `kind`, answered by `model` (see `agentModel`). */
export async function nextAgentTurn(
  kind: AgentKind,
  checkpointer: BaseCheckpointSaver,
  model: StrictChatModel,
  thread: string,
  options: { middleware?: AgentMiddleware[] } = {},
) {
  const agent = buildAgent(kind, { model, checkpointer, middleware: options.middleware });
  const state = await agent.invoke({ messages: [new HumanMessage("Thanks, and tomorrow?")] }, threadConfig(thread));
  return state.messages;
}
