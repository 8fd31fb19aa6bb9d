// Delta message channels (MessagesDeltaValue): what the graph rebuilds through the sanitizer, row by row of the
// tail-policy table, on every backend. The scenario families run both fields; this file pins what is delta-only.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, interrupt, type BaseCheckpointSaver } from "@langchain/langgraph";
import { DeltaSnapshot, emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, type RepairEvent } from "../../src/index.js";
import { calls, human, shape } from "../support/generators/messages.js";
import { rejectingProviders } from "../support/oracle/provider-rejections.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { FIRST_QUESTION, agentModel, cancelFirstTurn } from "../support/graphs/scenarios.js";

const field = "MessagesDeltaValue";
const tools = { search: () => "Paris: 15°C", lookup: () => "Seoul: 12°C" };
const deltaAgent = (checkpointer: BaseCheckpointSaver, agentTools: typeof tools = tools) =>
  reactGraph({ model: agentModel("anthropic"), tools: agentTools, field }).compile(checkpointer);
const types = (messages: unknown) => (messages as BaseMessage[]).map((m) => m.type);

for (const factory of saverFactories) {
  describe(`delta message channels on ${factory.name}`, () => {
    const open = saverPerTest(factory);
    const setup = async () => {
      const inner = await open();
      const events: RepairEvent[] = [];
      return { inner, sanitizer: new SanitizingCheckpointer(inner, { onRepair: (e) => events.push(e) }), events };
    };

    it("latest checkpoint of a cancelled run: the graph reads the repaired list; nothing is written", async () => {
      const { inner, sanitizer, events } = await setup();
      await cancelFirstTurn(inner, "during-tools", "t", { field });
      const config = { configurable: { thread_id: "t" } };
      const latest = await inner.getTuple(config);
      // What the graph rebuilds: the list is not in the tuple, only in the stored deltas.
      expect(latest!.checkpoint.channel_values.messages).toBeUndefined();
      const raw = (await deltaAgent(inner).getState(config)).values.messages as BaseMessage[];
      expect(types(raw)).toEqual(["human", "ai"]);
      expect(rejectingProviders([...raw, new HumanMessage("next")])).not.toEqual({});

      const repaired = (await deltaAgent(sanitizer).getState(config)).values.messages as BaseMessage[];
      expect(types(repaired)).toEqual(["human", "ai", "tool", "tool", "ai"]);
      expect(rejectingProviders([...repaired, new HumanMessage("next")])).toEqual({});
      expect(events.map((e) => [e.operation, e.tail, e.channel, e.threadId, e.checkpointNs, e.checkpointId])).toEqual([
        ["getDeltaChannelHistory", "stopped", "messages", "t", "", latest!.checkpoint.id],
      ]);
      expect(events[0]!.repairs.map((r) => r.code)).toEqual(["B", "B", "C"]);
      // No write, no version bump: the store reads as before.
      expect(await inner.getTuple(config)).toEqual(latest);
      expect(await inner.getDeltaChannelHistory({ config: latest!.config, channels: ["messages"] })).toEqual(
        await inner.getDeltaChannelHistory({ config: latest!.config, channels: ["messages"] }),
      );
    });

    it("the same checkpoint addressed by id (time travel) keeps its tail, even right after a latest read", async () => {
      const { inner, sanitizer } = await setup();
      await cancelFirstTurn(inner, "during-tools", "t", { field });
      const graph = deltaAgent(sanitizer);
      const latest = await graph.getState({ configurable: { thread_id: "t" } });
      expect(types(latest.values.messages)).toEqual(["human", "ai", "tool", "tool", "ai"]);
      expect(types((await graph.getState(latest.config)).values.messages)).toEqual(["human", "ai"]);
      expect(types((await graph.getState({ configurable: { thread_id: "t" } })).values.messages)).toHaveLength(5);
    });

    it("invoke(null, state.config) on a cancelled run's checkpoint resumes it as the wrapped saver does", async () => {
      // The graph reads the addressed checkpoint, then the latest one (to see whether the thread moved
      // on), then the delta history: the second read must not change what the first decided.
      const { inner, sanitizer, events } = await setup();
      const resume = async (checkpointer: BaseCheckpointSaver, thread: string) => {
        await cancelFirstTurn(inner, "during-tools", thread, { field });
        const state = await deltaAgent(checkpointer).getState({ configurable: { thread_id: thread } });
        return types((await deltaAgent(checkpointer).invoke(null, state.config)).messages);
      };
      const raw = await resume(inner, "resume-raw");
      expect(raw).toEqual(["human", "ai", "tool", "tool", "ai"]);
      expect(await resume(sanitizer, "resume")).toEqual(raw);
      expect(events.map((e) => [e.operation, e.tail])).toEqual([["getDeltaChannelHistory", "stopped"]]);
    });

    it("a history read of a checkpoint no read of this checkpointer returned keeps the tail, as list does", async () => {
      const { inner, sanitizer, events } = await setup();
      await cancelFirstTurn(inner, "during-tools", "direct", { field });
      const latest = await inner.getTuple({ configurable: { thread_id: "direct" } });
      const options = { config: latest!.config, channels: ["messages"] };
      expect(await sanitizer.getDeltaChannelHistory(options)).toEqual(await inner.getDeltaChannelHistory(options));
      // Once a getTuple of the latest checkpoint decided to repair, the same history read repairs.
      await sanitizer.getTuple({ configurable: { thread_id: "direct" } });
      const repaired = (await sanitizer.getDeltaChannelHistory(options)).messages!;
      expect(repaired.writes).toEqual([]);
      expect(types((repaired.seed as DeltaSnapshot<BaseMessage[]>).value)).toEqual([
        "human",
        "ai",
        "tool",
        "tool",
        "ai",
      ]);
      expect(events.map((e) => e.operation)).toEqual(["getDeltaChannelHistory"]);
    });

    it("a pending interrupt keeps its tail, and the resume answers the call once", async () => {
      const { sanitizer, events } = await setup();
      const graph = deltaAgent(sanitizer, { search: () => String(interrupt("approve?")), lookup: tools.lookup });
      const config = { configurable: { thread_id: "paused" } };
      await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
      expect(types((await graph.getState(config)).values.messages)).toEqual(["human", "ai"]);
      const resumed = await graph.invoke(new Command({ resume: "yes" }), config);
      expect(types(resumed.messages)).toEqual(["human", "ai", "tool", "tool", "ai"]);
      expect(events).toEqual([]);
    });

    it("a checkpoint written by updateState keeps its tail", async () => {
      const { inner, sanitizer } = await setup();
      await cancelFirstTurn(inner, "during-tools", "updated", { field });
      const config = { configurable: { thread_id: "updated" } };
      await deltaAgent(inner).updateState(config, { messages: [] }, "agent");
      const state = await deltaAgent(sanitizer).getState(config);
      expect(state.metadata?.source).toBe("update");
      expect(types(state.values.messages)).toEqual(["human", "ai"]);
    });

    it('per-call overrides: "off" reads the raw list, "preserve" keeps the tail', async () => {
      const { inner, sanitizer } = await setup();
      await cancelFirstTurn(inner, "during-tools", "o", { field });
      const graph = deltaAgent(sanitizer);
      const read = async (sanitizerPolicy: string) =>
        types((await graph.getState({ configurable: { thread_id: "o", sanitizer: sanitizerPolicy } })).values.messages);
      expect(await read("off")).toEqual(["human", "ai"]);
      expect(await read("preserve")).toEqual(["human", "ai"]);
      expect(await read("auto")).toEqual(["human", "ai", "tool", "tool", "ai"]);
    });

    it('policy "off" reads exactly what the wrapped saver returns', async () => {
      const { inner } = await setup();
      await cancelFirstTurn(inner, "during-tools", "off", { field });
      const config = { configurable: { thread_id: "off" } };
      const off = new SanitizingCheckpointer(inner, { policy: "off" });
      const latest = await off.getTuple(config);
      expect(isDeepStrictEqual(latest, await inner.getTuple(config))).toBe(true);
      const listed = async (saver: BaseCheckpointSaver) => {
        const tuples = [];
        for await (const tuple of saver.list(config)) tuples.push(tuple);
        return tuples;
      };
      expect(isDeepStrictEqual(await listed(off), await listed(inner))).toBe(true);
    });

    it("a clean thread's delta history is the wrapped saver's, and nothing is reported", async () => {
      const { inner, sanitizer, events } = await setup();
      const graph = deltaAgent(sanitizer);
      const config = { configurable: { thread_id: "clean" } };
      await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
      await graph.invoke({ messages: [new HumanMessage("And tomorrow?")] }, config);
      const latest = await sanitizer.getTuple(config);
      const options = { config: latest!.config, channels: ["messages"] };
      expect(await sanitizer.getDeltaChannelHistory(options)).toEqual(await inner.getDeltaChannelHistory(options));
      expect((await graph.getState(config)).values).toEqual((await deltaAgent(inner).getState(config)).values);
      expect(events).toEqual([]);
    });

    it("a delta snapshot stored in the checkpoint is repaired as the list it holds", async () => {
      const { inner, sanitizer } = await setup();
      const checkpoint = {
        ...emptyCheckpoint(),
        channel_values: { messages: new DeltaSnapshot([human("h1"), calls("a1", "c1")]), "branch:to:tools": null },
        channel_versions: { messages: 1, "branch:to:tools": 1 },
      };
      const metadata = { source: "loop" as const, step: 1, parents: {} };
      const config = { configurable: { thread_id: "snap", checkpoint_ns: "" } };
      const stored = await inner.put(config, checkpoint, metadata, checkpoint.channel_versions);
      const tuple = await sanitizer.getTuple({ configurable: { thread_id: "snap" } });
      const value = tuple!.checkpoint.channel_values.messages as DeltaSnapshot<BaseMessage[]>;
      expect(value).toBeInstanceOf(DeltaSnapshot);
      expect(shape(value.value).map((s) => s.split(":")[0])).toEqual(["human", "ai", "tool", "ai"]);
      expect(tuple!.checkpoint.channel_versions).toEqual((await inner.getTuple(stored))!.checkpoint.channel_versions);
    });

    it("channels: a delta channel not named is forwarded as stored", async () => {
      const inner = await open();
      await cancelFirstTurn(inner, "during-tools", "named", { field });
      const sanitizer = new SanitizingCheckpointer(inner, { channels: ["child_messages"] });
      const state = await deltaAgent(sanitizer).getState({ configurable: { thread_id: "named" } });
      expect(types(state.values.messages)).toEqual(["human", "ai"]);
    });
  });
}
