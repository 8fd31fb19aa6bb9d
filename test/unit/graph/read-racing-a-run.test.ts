// A `getState` that starts while a run works, and whose read of the saver returns only after the run has ended (a
// slow store, a busy connection pool: the soak met it on Redis and Postgres with 50 threads in flight). Its tuple is
// the run's mid-run snapshot. sanitizeGraph reads a running thread as stored; it must not decide on what it knows
// once the read returns (no run in flight, the last stop elsewhere) and show that snapshot's tail repaired.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, sanitizeGraph } from "../../../src/index.js";
import { reactGraph } from "../../support/graphs/react-graph.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel } from "../../support/graphs/scenarios.js";

/** A MemorySaver whose next `getTuple`, once held, reads at once but answers only when released. */
class SlowReads extends MemorySaver {
  private held: Promise<void> | undefined;
  hold(until: Promise<void>) {
    this.held = until;
  }
  override async getTuple(config: RunnableConfig) {
    const tuple = await super.getTuple(config);
    const held = this.held;
    this.held = undefined;
    if (held) await held;
    return tuple;
  }
}

const gate = () => {
  let open!: () => void;
  return { opened: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
};

describe("sanitizeGraph: a read that started while a run worked", () => {
  it("shows the snapshot it read as stored, even when the run ended before the read returned", async () => {
    const saver = new SlowReads();
    const [inTool, release] = [gate(), gate()];
    const search = async () => (inTool.open(), await release.opened, "Paris: 15°C");
    const tools = { search, lookup: () => LOOKUP_RESULT };
    const graph = sanitizeGraph(reactGraph({ model: agentModel("bedrock"), tools }).compile(saver));
    const config = { configurable: { thread_id: "t" } };

    const run = graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
    await inTool.opened;
    const answer = gate();
    saver.hold(answer.opened);
    const state = graph.getState(config);
    release.open();
    await run;
    answer.open();

    const messages = (await state).values.messages as BaseMessage[];
    // The read found the run working: the snapshot as stored (with whatever tool results it held), no repair.
    expect(messages.slice(0, 2).map((m) => m.type)).toEqual(["human", "ai"]);
    expect(messages.some(isSyntheticMessage)).toBe(false);
    // Whether a parallel call's result was stored by then depends on how fast the saver read: both are as stored.
    expect(messages.slice(2).every((m) => m.type === "tool")).toBe(true);
  });
});
