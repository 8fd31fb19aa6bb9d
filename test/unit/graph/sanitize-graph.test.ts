/**
 * sanitizeGraph in-process: a server's checkpointer assignments, done the way
 * `getGraph` of `@langchain/langgraph-api` does them (`graph.checkpointer = saver`
 * on every request, `undefined` for stateless runs), end up behind one
 * SanitizingCheckpointer per saver. The real server runs these graphs in
 * test/deployment/langgraph-server.test.ts.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver, MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { createAgent, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sanitizeGraph, SanitizingCheckpointer } from "../../../src/index.js";
import { agentModel, cancelFirstTurn, FIRST_QUESTION, stoppingAgent } from "../../support/graphs/scenarios.js";

const compiledAgent = () => stoppingAgent("during-tools", () => {}).builder.compile();

describe("sanitizeGraph", () => {
  it("wraps every saver assigned to the graph, one wrapper per saver, and never a wrapper again", () => {
    const graph = sanitizeGraph(compiledAgent());
    const [a, b] = [new MemorySaver(), new MemorySaver()];
    graph.checkpointer = a;
    const first = graph.checkpointer;
    expect(first).toBeInstanceOf(SanitizingCheckpointer);
    expect((first as SanitizingCheckpointer).inner).toBe(a);
    graph.checkpointer = a;
    expect(graph.checkpointer).toBe(first);
    graph.checkpointer = b;
    expect((graph.checkpointer as SanitizingCheckpointer).inner).toBe(b);
    const wrapper = graph.checkpointer;
    graph.checkpointer = wrapper;
    expect(graph.checkpointer).toBe(wrapper);
    // A wrapper the app built reads its own saver with its own options, plus what the graph knows.
    const own = new SanitizingCheckpointer(a, { policy: "repair" });
    graph.checkpointer = own;
    const adopted = graph.checkpointer as SanitizingCheckpointer;
    expect(adopted.inner).toBe(a);
    expect(adopted.resolved).toMatchObject({ policy: "repair" });
    graph.checkpointer = own;
    expect(graph.checkpointer).toBe(adopted);
  });

  it("passes true, false and undefined (a stateless run) through", () => {
    const graph = sanitizeGraph(compiledAgent());
    for (const value of [true, false, undefined]) {
      graph.checkpointer = value;
      expect(graph.checkpointer).toBe(value);
    }
  });

  it("wraps the checkpointer given to compile", () => {
    const saver = new MemorySaver();
    const graph = sanitizeGraph(stoppingAgent("during-tools", () => {}).builder.compile({ checkpointer: saver }));
    expect((graph.checkpointer as SanitizingCheckpointer).inner).toBe(saver);
  });

  it("validates options when called, naming the bad option", () => {
    expect(() => sanitizeGraph(compiledAgent(), { policy: "sometimes" as never })).toThrow(/policy must be one of/);
    expect(() => sanitizeGraph(compiledAgent(), { channels: [] })).toThrow(/channels must be a non-empty array/);
    expect(() => sanitizeGraph(() => compiledAgent(), { bridgeRole: "tool" as never })).toThrow(/bridgeRole/);
  });

  it("names the fix for an uncompiled graph", () => {
    expect(() => sanitizeGraph(stoppingAgent("during-tools", () => {}).builder)).toThrow(/call \.compile\(\) first/);
  });

  it(".withConfig of a sanitized graph stays protected, with the same wrappers", () => {
    const graph = sanitizeGraph(compiledAgent());
    const saver = new MemorySaver();
    graph.checkpointer = saver;
    const configured = graph.withConfig({ durability: "sync" }).withConfig({ tags: ["x"] });
    expect(configured.checkpointer).toBe(graph.checkpointer);
    const other = new MemorySaver();
    configured.checkpointer = other;
    expect((configured.checkpointer as SanitizingCheckpointer).inner).toBe(other);
    expect(graph.config ?? {}).not.toHaveProperty("durability");
    expect(configured.config).toMatchObject({ durability: "sync", tags: ["x"] });
  });

  it("protects what a graph factory returns, sync or async", async () => {
    const sync = sanitizeGraph(() => compiledAgent());
    const asynchronous = sanitizeGraph(async () => compiledAgent());
    const saver = new MemorySaver();
    for (const graph of [sync(), await asynchronous()]) {
      graph.checkpointer = saver;
      expect((graph.checkpointer as SanitizingCheckpointer).inner).toBe(saver);
    }
  });

  it("protects a createAgent agent's inner graph, and its .withConfig", () => {
    const search = tool(async () => "Paris: 15°C", { name: "search", schema: z.object({ city: z.string() }) });
    const agent = sanitizeGraph(createAgent({ model: agentModel("bedrock"), tools: [search] }));
    const saver = new MemorySaver();
    agent.graph.checkpointer = saver;
    expect((agent.checkpointer as SanitizingCheckpointer).inner).toBe(saver);
    const configured = agent.withConfig({ tags: ["x"] });
    configured.graph.checkpointer = saver;
    expect((configured.graph.checkpointer as SanitizingCheckpointer).inner).toBe(saver);
    // Its inner graph's own .withConfig: how `durability` reaches the graph the server runs.
    const inner = agent.graph.withConfig({ durability: "sync" });
    inner.checkpointer = saver;
    expect((inner.checkpointer as SanitizingCheckpointer).inner).toBe(saver);
  });

  it("a thread cancelled mid-tool continues on a graph whose saver was assigned after compile", async () => {
    const saver = new MemorySaver();
    await cancelFirstTurn(saver, "during-tools", "t1");
    // The raw graph, given the saver the same way, sends the broken history to the strict model.
    const raw = stoppingAgent("during-tools", () => {}, "bedrock").builder.compile();
    raw.checkpointer = saver;
    const nextTurn = { messages: [new HumanMessage("Thanks, and tomorrow?")] };
    await expect(raw.invoke(nextTurn, { configurable: { thread_id: "t1" } })).rejects.toThrow(/bedrock 400/);
    const graph = sanitizeGraph(stoppingAgent("during-tools", () => {}, "bedrock").builder.compile());
    graph.checkpointer = saver;
    const state = await graph.invoke(nextTurn, { configurable: { thread_id: "t1" } });
    const messages = state.messages as BaseMessage[];
    expect(messages[0]!.content).toBe(FIRST_QUESTION);
    expect(messages.at(-1)!.content).toBe("Happy to help with that.");
  });

  it("a breakpoint compiled into a subgraph: invoke(null) resumes as raw (LangGraph's own MessagesAnnotation test)", async () => {
    // The store shows nothing of a subgraph's breakpoint; sanitizeGraph sees the null input. The checkpointer
    // alone takes the resume for a new turn and closes the trailing user turn (see docs/tail-policy.md).
    const run = async (protect: boolean) => {
      const child = new StateGraph(MessagesAnnotation)
        .addNode("duper", ({ messages }) => ({ messages }))
        .addNode("duper2", ({ messages }) => ({ messages }))
        .addEdge("__start__", "duper")
        .addEdge("duper", "duper2")
        .compile({ interruptBefore: ["duper2"] });
      const compiled = new StateGraph(MessagesAnnotation)
        .addNode("duper", child)
        .addNode("duper2", ({ messages }) => ({ messages }))
        .addEdge("__start__", "duper")
        .addEdge("duper", "duper2")
        .compile({ checkpointer: protect ? new SanitizingCheckpointer(new MemorySaver()) : new MemorySaver() });
      const graph = protect ? sanitizeGraph(compiled) : compiled;
      const config = { configurable: { thread_id: "1" } };
      const first = await graph.invoke({ messages: [new HumanMessage("should be only one")] }, config);
      const resumed = await graph.invoke(null, config);
      return [first.messages.length, resumed.messages.length];
    };
    expect(await run(false)).toEqual([1, 1]);
    expect(await run(true)).toEqual([1, 1]);
  });
});
