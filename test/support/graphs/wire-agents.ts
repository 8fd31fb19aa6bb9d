/**
 * The two agents apps build, over a real provider client: a StateGraph with the prebuilt ToolNode
 * (all calls of a turn in one task), and `createAgent` from `langchain` (one task per call). Both
 * have the tools `search` and `lookup`; a run can be cancelled while a tool runs, or after `lookup`
 * finished while `search` still runs.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { expect } from "vitest";
import { z } from "zod";
import { sanitizeGraph, type SanitizingCheckpointerOptions } from "../../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../../src/middleware/index.js";
import type { ProviderEmulator, Script } from "../provider-emulator/index.js";
import { hangUntilAborted } from "./react-graph.js";
import { FIRST_QUESTION, LOOKUP_RESULT, cancelled } from "./scenarios.js";

export type AgentKind = "StateGraph + ToolNode" | "createAgent";
export const AGENT_KINDS: readonly AgentKind[] = ["StateGraph + ToolNode", "createAgent"];

/** Where a tool stops the first turn; `undefined`: the tools just answer. */
export type ToolStop = "during-tools" | "after-one-of-two-parallel-tools" | undefined;

export const NEXT_QUESTION = "Thanks, and tomorrow?";
export const FINAL_ANSWER = "Happy to help with that.";

/** The provider's side of the agent: two calls for the first question, an answer after tools, a reply otherwise. */
export const agentScript =
  (hangOnQuestion = false): Script =>
  (last) => {
    if (last.role === "user" && last.text === FIRST_QUESTION) {
      return {
        text: "Let me check both cities. ",
        calls: [
          { name: "search", args: { city: "Paris" } },
          { name: "lookup", args: { city: "Seoul" } },
        ],
        hang: hangOnQuestion,
      };
    }
    return { text: last.role === "tool" ? "Paris is 15°C, Seoul is 12°C." : FINAL_ANSWER };
  };

const cityArgs = z.object({ city: z.string() });

/** The tools; with a `stop`, `onStop` is called once at that point and the run is expected to be cancelled there. */
export function agentTools(stop?: ToolStop, onStop: () => void = () => {}) {
  let lookupDone: () => void = () => {};
  const lookupFinished = new Promise<void>((resolve) => (lookupDone = resolve));
  const search = tool(
    async (_args, config) => {
      if (!stop) return "Paris: 15°C";
      // Let the sibling's result reach the saver first (createAgent runs each call as its own task).
      if (stop === "after-one-of-two-parallel-tools") await lookupFinished;
      onStop();
      return hangUntilAborted(config.signal);
    },
    { name: "search", description: "Weather in a city", schema: cityArgs },
  );
  const lookup = tool(
    async () => {
      setTimeout(lookupDone, 30);
      return LOOKUP_RESULT;
    },
    { name: "lookup", description: "Weather in a city", schema: cityArgs },
  );
  return [search, lookup];
}

/** The StateGraph agent over `model` with the prebuilt ToolNode running `tools`; compile it with or without a checkpointer. */
export function toolNodeAgent(model: BaseChatModel, tools: StructuredToolInterface[]) {
  const bound = model.bindTools!(tools);
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await bound.invoke(state.messages)] }))
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent");
}

/** A compiled agent of `kind` over `model` and `checkpointer`. */
export function buildAgent(
  kind: AgentKind,
  model: BaseChatModel,
  checkpointer: BaseCheckpointSaver,
  stop?: ToolStop,
  onStop: () => void = () => {},
) {
  const tools = agentTools(stop, onStop);
  if (kind === "createAgent") return createAgent({ model, tools, checkpointer });
  return toolNodeAgent(model, tools).compile({ checkpointer });
}

type Agent = ReturnType<typeof buildAgent>;
const config = (thread: string) => ({ configurable: { thread_id: thread } });

/**
 * Streams the first turn token by token, as a chat UI does, and cancels it at `stop`: on the first
 * token (`"during-llm"`), or where a tool calls back. Resolves with the error the run ended with.
 */
export async function cancelFirstTurn(
  kind: AgentKind,
  model: BaseChatModel,
  checkpointer: BaseCheckpointSaver,
  thread: string,
  stop: "during-llm" | NonNullable<ToolStop>,
) {
  const controller = new AbortController();
  const agent: Agent = buildAgent(kind, model, checkpointer, stop === "during-llm" ? undefined : stop, () =>
    controller.abort(),
  );
  const input = { messages: [new HumanMessage(FIRST_QUESTION)] };
  // "sync" durability: the thread is settled when the cancelled call returns.
  const options = {
    ...config(thread),
    signal: controller.signal,
    streamMode: "messages" as const,
    durability: "sync" as const,
  };
  return cancelled(`the first turn on ${thread}`, stop, async () => {
    for await (const _chunk of await agent.stream(input, options)) if (stop === "during-llm") controller.abort();
  });
}

/** Runs one whole turn with `text`. */
export async function runTurn(
  kind: AgentKind,
  model: BaseChatModel,
  checkpointer: BaseCheckpointSaver,
  thread: string,
  text: string,
): Promise<BaseMessage[]> {
  const agent: Agent = buildAgent(kind, model, checkpointer);
  const state = await agent.invoke({ messages: [new HumanMessage(text)] }, config(thread));
  return state.messages as BaseMessage[];
}

/** A thread whose last run finished after storing `history` (the graph reached END: no pending tasks). */
export async function storeFinishedRun(saver: BaseCheckpointSaver, thread: string, history: BaseMessage[]) {
  await new StateGraph(MessagesAnnotation)
    .addNode("run", () => ({ messages: history }))
    .addEdge(START, "run")
    .addEdge("run", END)
    .compile({ checkpointer: saver })
    .invoke({ messages: [] }, config(thread));
}

/** What became of a new message: answered, rejected by the provider, or refused by the client before it sent it. */
export type Outcome = "answered" | "rejected" | "refused by the client";

/**
 * How the next message is sent: to the raw graph, to the graph through `sanitizeGraph` with these options, or to a
 * `createAgent` agent with `sanitizeMessagesMiddleware()`.
 */
export type NextWay = "raw" | { sanitizeGraph: SanitizingCheckpointerOptions } | "middleware";

/**
 * The next user message on `thread` of `saver`, answered by `model` (the emulator's API `provider`), sent `way`, and
 * what became of it.
 */
export async function answerNext(
  emulator: ProviderEmulator,
  provider: string,
  model: BaseChatModel,
  saver: BaseCheckpointSaver,
  thread: string,
  way: NextWay,
): Promise<Outcome> {
  const sent = emulator.requests.length;
  const input = { messages: [new HumanMessage(NEXT_QUESTION)] };
  try {
    let messages: BaseMessage[];
    if (way === "middleware") {
      const agent = createAgent({ model, tools: [], checkpointer: saver, middleware: [sanitizeMessagesMiddleware()] });
      messages = (await agent.invoke(input, config(thread))).messages;
    } else {
      const agent = buildAgent("StateGraph + ToolNode", model, saver);
      const graph = way === "raw" ? agent : sanitizeGraph(agent, way.sanitizeGraph);
      messages = (await graph.invoke(input, config(thread))).messages;
    }
    expect(messages.at(-1)?.text).toBe(FINAL_ANSWER);
    return "answered";
  } catch (error) {
    if (emulator.requests.length === sent) return "refused by the client";
    expect(emulator.last(provider).status, String(error)).toBe(400);
    return "rejected";
  }
}
