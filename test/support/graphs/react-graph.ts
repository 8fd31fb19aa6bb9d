/**
 * A ReAct agent as apps build it: an LLM node, tools, and a loop back. Tools
 * run either in one task (like ToolNode) or one task per call through `Send`
 * (parallel tasks, which is what strands finished results in pendingWrites).
 * The message channel's name is configurable, and the nodes are exposed so
 * tests can compose them into graphs of their own (adapters, input/output schemas).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  Annotation,
  DeltaValue,
  END,
  MessagesDeltaValue,
  START,
  Send,
  StateGraph,
  StateSchema,
  messagesStateReducer,
  type BaseCheckpointSaver,
  type Messages,
} from "@langchain/langgraph";

export type ToolFn = (args: Record<string, unknown>, config: RunnableConfig) => Promise<string> | string;

export interface ReactGraphOptions {
  model: BaseChatModel;
  tools: Record<string, ToolFn>;
  /** `"node"`: all calls in one task; `"send"`: one task per call. Default `"node"`. */
  fanOut?: "node" | "send";
  /** The state channel holding the conversation. Default `"messages"`. */
  channel?: string;
  /** How that channel is stored. Default `"MessagesValue"`. */
  field?: MessagesField;
}

/**
 * How a graph stores its conversation: the whole list at every step (a `messages` reducer channel, as
 * `MessagesValue`), or per-step deltas rebuilt on read (`MessagesDeltaValue`, a DeltaChannel; `(3)`: one that stores a
 * snapshot of the list every 3 updates, where the default waits for 100).
 */
export type MessagesField = "MessagesValue" | "MessagesDeltaValue" | "MessagesDeltaValue(3)";
export const MESSAGES_FIELDS: readonly MessagesField[] = ["MessagesValue", "MessagesDeltaValue"];

type ToolCall = NonNullable<AIMessage["tool_calls"]>[number];
/** Any state that holds the conversation under the agent's channel (other keys are the graph's own). */
type State = Record<string, unknown>;

/** A state channel of messages under `name`, with the `messages` reducer. */
export const messagesChannel = (name: string) => ({
  [name]: Annotation<BaseMessage[], Messages>({ reducer: messagesStateReducer, default: () => [] }),
});

async function runTool(tools: Record<string, ToolFn>, call: ToolCall, config: RunnableConfig): Promise<ToolMessage> {
  const fn = tools[call.name];
  const content = fn ? await fn(call.args, config) : `unknown tool ${call.name}`;
  return new ToolMessage({ content, tool_call_id: call.id!, name: call.name });
}

const lastCalls = (messages: BaseMessage[]): ToolCall[] => {
  const last = messages.at(-1);
  return last?.type === "ai" ? ((last as AIMessage).tool_calls ?? []) : [];
};

/** A graph state holding only a conversation under `name`, stored as `field`. */
export function messagesState(name = "messages", field: MessagesField = "MessagesValue") {
  if (field === "MessagesValue") return Annotation.Root(messagesChannel(name));
  const { valueSchema, inputSchema, reducer, jsonSchemaExtra } = MessagesDeltaValue;
  const snapshotting = new DeltaValue(valueSchema, { inputSchema, reducer, jsonSchemaExtra, snapshotFrequency: 3 });
  return new StateSchema({ [name]: field === "MessagesDeltaValue" ? MessagesDeltaValue : snapshotting });
}

/** The agent's nodes and router, over the channel `channel`. */
export function reactNodes({ model, tools, fanOut = "node", channel = "messages" }: ReactGraphOptions) {
  return {
    agent: async (state: State, config: RunnableConfig & { writer?: (chunk: unknown) => void }) => {
      // A custom stream event, as apps emit progress (streamMode "custom").
      const messages = state[channel] as BaseMessage[];
      config.writer?.({ node: "agent", status: "thinking", history: messages.length });
      return { [channel]: [await model.invoke(messages, config)] };
    },
    tools: async (state: State, config: RunnableConfig) => ({
      [channel]: await Promise.all(
        lastCalls(state[channel] as BaseMessage[]).map((call) => runTool(tools, call, config)),
      ),
    }),
    tool: async (input: { call: ToolCall }, config: RunnableConfig) => ({
      [channel]: [await runTool(tools, input.call, config)],
    }),
    route: (state: State) => {
      const calls = lastCalls(state[channel] as BaseMessage[]);
      if (calls.length === 0) return END;
      return fanOut === "send" ? calls.map((call) => new Send("tool", { call })) : "tools";
    },
  };
}

/** Builds the agent graph; compile it with the checkpointer under test. */
export function reactGraph(options: ReactGraphOptions) {
  const nodes = reactNodes(options);
  // The channel name is chosen at run time, so the builder is typed loosely.

  const builder: StateGraph<any, any, any, any> = new StateGraph(
    messagesState(options.channel, options.field) as ReturnType<typeof Annotation.Root>,
  );
  builder
    .addNode("agent", nodes.agent)
    .addNode("tools", nodes.tools)
    .addNode("tool", nodes.tool)
    .addEdge(START, "agent")
    .addConditionalEdges("agent", nodes.route, ["tools", "tool", END])
    .addEdge("tools", "agent")
    .addEdge("tool", "agent");
  return {
    builder,
    compile: (checkpointer: BaseCheckpointSaver, extra: { interruptBefore?: ("agent" | "tools" | "tool")[] } = {}) =>
      builder.compile({ checkpointer, ...extra }),
  };
}

/** Resolves never, rejects when `signal` aborts: a tool or node that is still working when the run is cancelled. */
export function hangUntilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
