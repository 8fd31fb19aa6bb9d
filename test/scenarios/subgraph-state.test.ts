// Source 003 (subgraph state loss): the guide's reproduction behaves identically through the sanitizer,
// and subgraphs that keep their own history (own message channel, adapter, input/output schemas) have
// a cancelled run repaired in their own namespace.
import { type AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import {
  Annotation,
  END,
  START,
  StateGraph,
  messagesStateReducer,
  type BaseCheckpointSaver,
  type Messages,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, type RepairEvent } from "../../src/index.js";
import { comparable, rawAndSanitized } from "../support/comparisons/compare.js";
import {
  hangUntilAborted,
  messagesChannel,
  reactGraph,
  reactNodes,
  type ToolFn,
} from "../support/graphs/react-graph.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel } from "../support/graphs/scenarios.js";
import { ProviderRejection } from "../support/graphs/strict-chat-model.js";

/** Tools whose `search` cancels the run while it works, once `cancel` is set. */
function cancellingTools(controller: { current?: AbortController }): Record<string, ToolFn> {
  return {
    search: async (_args, config) => {
      if (!controller.current) return "Paris: 15°C";
      controller.current.abort();
      return hangUntilAborted(config.signal);
    },
    lookup: () => LOOKUP_RESULT,
  };
}

/** Runs `first` cancelled mid-tool, then `second` to completion, on the same graph factory. */
async function cancelThenContinue<I>(
  build: (
    cp: BaseCheckpointSaver,
    tools: Record<string, ToolFn>,
    profile: "anthropic",
  ) => { invoke: (input: I, config: object) => Promise<unknown> },
  checkpointer: BaseCheckpointSaver,
  first: I,
  second: I,
) {
  const controller: { current?: AbortController } = { current: new AbortController() };
  const config = { configurable: { thread_id: "sub" } };
  const graph = build(checkpointer, cancellingTools(controller), "anthropic");
  await expect(
    graph.invoke(first, { ...config, signal: controller.current!.signal, durability: "sync" }),
  ).rejects.toThrow();
  controller.current = undefined;
  return graph.invoke(second, config);
}

for (const factory of saverFactories) {
  describe(`subgraph state on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    it("reproduces the guide's parent updateState while a subgraph is interrupted, identically", async () => {
      const State = Annotation.Root({ foo: Annotation<boolean>, bar: Annotation<boolean> });
      const run = async (checkpointer: BaseCheckpointSaver) => {
        const subgraph = new StateGraph(State)
          .addNode("subgraph_node_1", () => ({ foo: true }))
          .addNode("subgraph_node_2", (s) => ({ foo: s.foo }))
          .addEdge(START, "subgraph_node_1")
          .addEdge("subgraph_node_1", "subgraph_node_2")
          .addEdge("subgraph_node_2", END)
          .compile({ interruptAfter: ["subgraph_node_1", "subgraph_node_2"] });
        const graph = new StateGraph(State)
          .addNode("node1", (s) => ({ bar: s.bar }))
          .addNode("node2", subgraph)
          .addNode("node3", (s) => ({ bar: s.bar }))
          .addEdge(START, "node1")
          .addEdge("node1", "node2")
          .addEdge("node2", "node3")
          .addEdge("node3", END)
          .compile({ checkpointer, interruptAfter: ["node1", "node3"] });
        const config = { configurable: { thread_id: "1" } };
        const collect = async (input: unknown, cfg: object) => {
          const events: unknown[] = [];
          for await (const [ns, update] of await graph.stream(input as never, {
            ...cfg,
            streamMode: "updates",
            subgraphs: true,
          })) {
            events.push([(ns as string[]).map((n) => n.split(":")[0]), update]);
          }
          return events;
        };
        const first = await collect({ foo: false, bar: false }, config);
        const second = await collect(null, config);
        const updated = await graph.updateState(config, { bar: true });
        const third = await collect(null, updated);
        const fourth = await collect(null, config);
        return { first, second, third, fourth, final: (await graph.getState(config)).values };
      };
      const { raw, sanitized } = await rawAndSanitized(open, run);
      expect(comparable(sanitized)).toEqual(comparable(raw));
      expect(sanitized.first.length).toBeGreaterThan(0);
    });

    it("own message channels: a run cancelled inside the child (adapter, child_messages) is repaired in the child's namespace", async () => {
      const build = (checkpointer: BaseCheckpointSaver, tools: Record<string, ToolFn>, profile: "anthropic") => {
        const child = reactGraph({ model: agentModel(profile), tools, channel: "child_messages" }).builder.compile({
          checkpointer: true,
        });
        return new StateGraph(Annotation.Root(messagesChannel("parent_messages")))
          .addNode("child_adapter", async (state, config) => {
            const out = await child.invoke({ child_messages: [state.parent_messages!.at(-1)!] }, config);
            return { parent_messages: [(out.child_messages as BaseMessage[]).at(-1)!] };
          })
          .addEdge(START, "child_adapter")
          .addEdge("child_adapter", END)
          .compile({ checkpointer });
      };
      const first = { parent_messages: [new HumanMessage(FIRST_QUESTION)] };
      const second = { parent_messages: [new HumanMessage("And tomorrow?")] };

      await expect(cancelThenContinue(build, await open(), first, second)).rejects.toBeInstanceOf(ProviderRejection);

      const events: RepairEvent[] = [];
      const sanitizer = new SanitizingCheckpointer(await open(), { onRepair: (e) => events.push(e) });
      const result = (await cancelThenContinue(build, sanitizer, first, second)) as { parent_messages: BaseMessage[] };
      expect(result.parent_messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
      const child = events.find((e) => e.channel === "child_messages");
      expect(child).toMatchObject({ checkpointNs: "child_adapter", tail: "stopped" });
      expect(child!.repairs.map((r) => r.code)).toEqual(["B", "B", "C"]);
    });

    it("input/output schemas: a child exposing only question/answer is repaired in its own namespace", async () => {
      const Full = Annotation.Root({
        question: Annotation<string>,
        answer: Annotation<string>,
        child_messages: Annotation<BaseMessage[], Messages>({ reducer: messagesStateReducer, default: () => [] }),
      });
      const Input = Annotation.Root({ question: Annotation<string> });
      const Output = Annotation.Root({ answer: Annotation<string> });
      const build = (checkpointer: BaseCheckpointSaver, tools: Record<string, ToolFn>, profile: "anthropic") => {
        const nodes = reactNodes({ model: agentModel(profile), tools, channel: "child_messages" });
        const researcher = new StateGraph({ stateSchema: Full, input: Input, output: Output })
          .addNode("ingest", (s) => ({ child_messages: [new HumanMessage(s.question)] }))
          .addNode("agent", nodes.agent)
          .addNode("tools", nodes.tools)
          .addNode("emit", (s) => ({ answer: String((s.child_messages.at(-1) as AIMessage).content) }))
          .addEdge(START, "ingest")
          .addEdge("ingest", "agent")
          .addConditionalEdges("agent", (s) => (nodes.route(s) === END ? "emit" : "tools"), ["tools", "emit"])
          .addEdge("tools", "agent")
          .addEdge("emit", END)
          .compile({ checkpointer: true });
        return new StateGraph(Annotation.Root({ question: Annotation<string>, answer: Annotation<string> }))
          .addNode("researcher", researcher)
          .addEdge(START, "researcher")
          .addEdge("researcher", END)
          .compile({ checkpointer });
      };
      await expect(
        cancelThenContinue(build, await open(), { question: FIRST_QUESTION }, { question: "And tomorrow?" }),
      ).rejects.toBeInstanceOf(ProviderRejection);

      const events: RepairEvent[] = [];
      const sanitizer = new SanitizingCheckpointer(await open(), { onRepair: (e) => events.push(e) });
      const result = await cancelThenContinue(
        build,
        sanitizer,
        { question: FIRST_QUESTION },
        { question: "And tomorrow?" },
      );
      expect(result).toMatchObject({ answer: "Happy to help with that." });
      expect(events.map((e) => [e.checkpointNs, e.channel])).toEqual([["researcher", "child_messages"]]);
    });
  });
}
