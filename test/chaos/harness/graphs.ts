/**
 * The graphs of the soak, each over one real provider client: a StateGraph with the prebuilt ToolNode, one that
 * fans the calls out with `Send` (one task per call), `createAgent`, the ToolNode agent as a subgraph node of a
 * parent graph, and `createDeepAgent`. Each is built once per backend and client and serves every thread, as a
 * server's graph does.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MessagesAnnotation, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import type { StateSnapshot } from "@langchain/langgraph";
import { buildAgent, langchainTools } from "../../support/graphs/agents.js";
import { reactGraph } from "../../support/graphs/react-graph.js";
import { toolNodeAgent } from "../../support/graphs/wire-agents.js";
import { CHAOS_TOOLS } from "./tools.js";

export const GRAPH_KINDS = ["ToolNode", "Send", "createAgent", "subgraph", "deepagents"] as const;
export type GraphKind = (typeof GRAPH_KINDS)[number];

/** A compiled graph, as far as the soak uses it. */
export interface CompiledLike {
  stream(input: unknown, config: RunnableConfig & Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: RunnableConfig, options?: { subgraphs?: boolean }): Promise<StateSnapshot>;
  getStateHistory(config: RunnableConfig): AsyncIterable<StateSnapshot>;
  checkpointer?: unknown;
}

/** A graph of the soak: what runs a turn, and the compiled graph that reads its state. */
export interface ChaosGraph {
  run: Pick<CompiledLike, "stream">;
  state: CompiledLike;
}

const tools = () => langchainTools(CHAOS_TOOLS);

/** The graph of `kind` over `model`, compiled with `checkpointer` (an agent: its runner and its inner graph). */
export function buildGraph(kind: GraphKind, model: BaseChatModel, checkpointer: BaseCheckpointSaver): unknown {
  switch (kind) {
    case "ToolNode":
      return toolNodeAgent(model, tools()).compile({ checkpointer });
    case "Send":
      // The bound model is a runnable the agent node invokes like a chat model.
      return reactGraph({
        model: model.bindTools!(tools()) as unknown as BaseChatModel,
        tools: CHAOS_TOOLS,
        fanOut: "send",
      }).builder.compile({ checkpointer });
    case "subgraph":
      return new StateGraph(MessagesAnnotation)
        .addNode("assistant", toolNodeAgent(model, tools()).compile())
        .addEdge(START, "assistant")
        .addEdge("assistant", END)
        .compile({ checkpointer });
    case "createAgent":
      return buildAgent("createAgent", { model, tools: CHAOS_TOOLS, checkpointer });
    case "deepagents":
      return buildAgent("createDeepAgent", { model, tools: CHAOS_TOOLS, checkpointer });
  }
}

/** What {@link buildGraph} built, as the soak drives it: an agent runs itself and reads through its `.graph`. */
export function asChaosGraph(built: unknown): ChaosGraph {
  const graph = built as CompiledLike & { graph?: CompiledLike };
  return { run: graph, state: graph.graph ?? graph };
}
