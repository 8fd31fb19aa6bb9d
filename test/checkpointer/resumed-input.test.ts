// A run stopped right after storing its input checkpoint (drained, killed or cancelled at that instant) leaves its
// input on `__start__`, not yet applied. A run that continues that checkpoint (`invoke(null)`, a retry) applies the
// input first: a new turn, whose history must be closed as any new turn's. Savers that store a channel only when its
// version changes (Postgres, FastPostgresSaver, Redis) keep the broken tail as stored under that checkpoint, where
// MemorySaver and SQLite store the list the run read, repaired. Found by the soak (a drain, then invoke(null)).
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { GraphDrained, RunControl } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, sanitizeGraph, SanitizingCheckpointer } from "../../src/index.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { fastPostgresFactory, saverFactories, saverPerTest } from "../support/savers/savers.js";
import { agentModel, FIRST_QUESTION, LOOKUP_RESULT } from "../support/graphs/scenarios.js";
import { serviceAvailable } from "../support/servers/services.js";

const FACTORIES = [...saverFactories, ...((await serviceAvailable("postgres")) ? [fastPostgresFactory] : [])];

describe.each(FACTORIES)("a run continued at its input checkpoint, on $name", (factory) => {
  const open = saverPerTest(factory);

  it("applies the stored input to a closed history: the model takes the next request", async () => {
    let fails = true;
    const search = () => {
      if (fails) throw new Error("search is down");
      return "Paris: 15°C";
    };
    const compiled = reactGraph({ model: agentModel("bedrock"), tools: { search, lookup: () => LOOKUP_RESULT } });
    const graph = sanitizeGraph(compiled.compile(new SanitizingCheckpointer(await open())));
    const config = { configurable: { thread_id: "t" } };
    // A first turn whose tool failed: the calls are left open.
    await expect(graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config)).rejects.toThrow(/down/);
    fails = false;
    // The next message, drained as its run starts: only its input checkpoint is stored.
    const control = new RunControl();
    control.requestDrain("sigterm");
    const next = { messages: [new HumanMessage("And tomorrow?")] };
    await expect(graph.invoke(next, { ...config, control } as never)).rejects.toBeInstanceOf(GraphDrained);
    expect((await graph.getState(config)).metadata?.source).toBe("input");

    const messages = (await graph.invoke(null, config)).messages as BaseMessage[];
    expect(messages.map((m) => [m.type, isSyntheticMessage(m)])).toEqual([
      ["human", false],
      ["ai", false],
      ["tool", true],
      ["tool", true],
      ["ai", true],
      ["human", false],
      ["ai", false],
    ]);
    expect(messages.at(-1)!.content).toBe("Happy to help with that.");
  });
});
