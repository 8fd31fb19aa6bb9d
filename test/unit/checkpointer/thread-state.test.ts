// Reading a stored checkpoint's pending tasks, in the formats every LangGraph.js 1.x line stores.
import { MemorySaver, type Checkpoint } from "@langchain/langgraph-checkpoint";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { hasPendingTasks } from "../../../src/index.js";
import { pendingNodes } from "../../../src/checkpointer/thread-state.js";

const stored = (channel_values: Record<string, unknown>) => ({ channel_values }) as unknown as Checkpoint;

describe("pending tasks of a stored checkpoint", () => {
  it("reads Send packets as LangGraph 1.4+ stores them (a list) and as 1.0-1.3 do ([seen, packets])", () => {
    const packet = { lg_name: "Send", node: "worker", args: {} };
    expect(pendingNodes(stored({ __pregel_tasks: [packet] }))).toEqual(["worker"]);
    expect(pendingNodes(stored({ __pregel_tasks: [[], [packet]] }))).toEqual(["worker"]);
    // Before 1.4 every checkpoint holds the pair, a finished thread's empty.
    expect(hasPendingTasks(stored({ __pregel_tasks: [[], []], messages: [] }))).toBe(false);
    expect(hasPendingTasks(stored({ __pregel_tasks: [] }))).toBe(false);
  });

  it("reads an edge from several nodes as pending once every source has run", () => {
    expect(pendingNodes(stored({ "join:b+c:d": ["b", "c"] }))).toEqual(["d"]);
    expect(hasPendingTasks(stored({ "join:b+c:d": ["b"] }))).toBe(false);
  });

  it("finds the node a real graph paused before at a join, and none once it ended", async () => {
    const State = Annotation.Root({ log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const step = (name: string) => () => ({ log: [name] });
    const saver = new MemorySaver();
    const graph = new StateGraph(State)
      .addNode("b", step("b"))
      .addNode("c", step("c"))
      .addNode("d", step("d"))
      .addEdge(START, "b")
      .addEdge(START, "c")
      .addEdge(["b", "c"], "d")
      .addEdge("d", END)
      .compile({ checkpointer: saver, interruptBefore: ["d"] });
    const config = { configurable: { thread_id: "join" } };
    await graph.invoke({ log: [] }, config);
    const paused = (await saver.getTuple(config))!.checkpoint;
    expect(pendingNodes(paused)).toEqual(["d"]);
    await graph.invoke(null, config);
    expect(hasPendingTasks((await saver.getTuple(config))!.checkpoint)).toBe(false);
  });
});
