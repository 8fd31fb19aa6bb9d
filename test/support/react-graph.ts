/**
 * A ReAct agent as apps build it: an LLM node, tools, and a loop back. Tools
 * run either in one task (like ToolNode) or one task per call through `Send`
 * (parallel tasks, which is what strands finished results in pendingWrites).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MessagesAnnotation, START, Send, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";

export type ToolFn = (args: Record<string, unknown>, config: RunnableConfig) => Promise<string> | string;

export interface ReactGraphOptions {
  model: BaseChatModel;
  tools: Record<string, ToolFn>;
  /** `"node"`: all calls in one task; `"send"`: one task per call. Default `"node"`. */
  fanOut?: "node" | "send";
}

type ToolCall = NonNullable<AIMessage["tool_calls"]>[number];

async function runTool(tools: Record<string, ToolFn>, call: ToolCall, config: RunnableConfig): Promise<ToolMessage> {
  const fn = tools[call.name];
  const content = fn ? await fn(call.args, config) : `unknown tool ${call.name}`;
  return new ToolMessage({ content, tool_call_id: call.id!, name: call.name });
}

const lastCalls = (messages: BaseMessage[]): ToolCall[] => {
  const last = messages.at(-1);
  return last?.type === "ai" ? ((last as AIMessage).tool_calls ?? []) : [];
};

/** Builds the graph; compile it with the checkpointer under test. */
export function reactGraph({ model, tools, fanOut = "node" }: ReactGraphOptions) {
  const builder = new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state, config) => {
      // A custom stream event, as apps emit progress (streamMode "custom").
      config.writer?.({ node: "agent", status: "thinking", history: state.messages.length });
      return { messages: [await model.invoke(state.messages, config)] };
    })
    .addNode("tools", async (state: typeof MessagesAnnotation.State, config) => ({
      messages: await Promise.all(lastCalls(state.messages).map((call) => runTool(tools, call, config))),
    }))
    .addNode("tool", async (input: { call: ToolCall }, config) => ({ messages: [await runTool(tools, input.call, config)] }))
    .addEdge(START, "agent")
    .addConditionalEdges(
      "agent",
      (state) => {
        const calls = lastCalls(state.messages);
        if (calls.length === 0) return END;
        return fanOut === "send" ? calls.map((call) => new Send("tool", { call })) : "tools";
      },
      ["tools", "tool", END],
    )
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
