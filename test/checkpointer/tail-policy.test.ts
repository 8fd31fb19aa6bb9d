// Every row of the tail-policy table (docs/tail-policy.md), on every backend.
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph, interrupt, type BaseCheckpointSaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, isSyntheticMessage, type RepairEvent } from "../../src/index.js";
import { findTailStart } from "../../src/repair/walk/tail.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { MESSAGES_FIELDS, messagesState, reactGraph } from "../support/graphs/react-graph.js";
import { agentModel, cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";
import { calls, human, shape } from "../support/generators/messages.js";

const messagesOf = (tuple: { checkpoint: { channel_values: Record<string, unknown> } } | undefined) =>
  tuple!.checkpoint.channel_values.messages as BaseMessage[];

for (const factory of saverFactories) {
  describe(`tail policy on ${factory.name}`, () => {
    const open = saverPerTest(factory);
    /** A raw saver and the sanitizer around it, reporting what it repairs. */
    const setup = async () => {
      const inner = await open();
      const events: RepairEvent[] = [];
      return { inner, sanitizer: new SanitizingCheckpointer(inner, { onRepair: (e) => events.push(e) }), events };
    };

    it("getTuple, run reached END: preserves the tail (client-side tool calls left on purpose)", async () => {
      const { inner, sanitizer } = await setup();
      const clientTools = new StateGraph(MessagesAnnotation)
        .addNode("agent", () => ({
          messages: [new AIMessage({ content: "", tool_calls: [{ id: "client_1", name: "pick_date", args: {} }] })],
        }))
        .addEdge(START, "agent")
        .addEdge("agent", END)
        .compile({ checkpointer: sanitizer });
      await clientTools.invoke(
        { messages: [new HumanMessage("book a table")] },
        { configurable: { thread_id: "ended" } },
      );
      const config = { configurable: { thread_id: "ended" } };
      expect(shape(messagesOf(await sanitizer.getTuple(config)))).toEqual(
        shape(messagesOf(await inner.getTuple(config))),
      );
      expect(messagesOf(await sanitizer.getTuple(config)).at(-1)).toMatchObject({ tool_calls: [{ id: "client_1" }] });
    });

    it("getTuple, pending interrupt: preserves the tail (covered end to end in interrupts-and-retries)", async () => {
      const { inner, sanitizer, events } = await setup();
      const graph = new StateGraph(MessagesAnnotation)
        .addNode("agent", () => ({
          messages: [new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "send_email", args: {} }] })],
        }))
        .addNode("tools", () => {
          interrupt("approve?");
          return {};
        })
        .addEdge(START, "agent")
        .addEdge("agent", "tools")
        .addEdge("tools", END)
        .compile({ checkpointer: sanitizer });
      const config = { configurable: { thread_id: "paused" } };
      await graph.invoke({ messages: [new HumanMessage("email Bob")] }, config);
      expect(await sanitizer.getTuple(config)).toEqual(await inner.getTuple(config));
      expect(events).toEqual([]);
    });

    it.each(MESSAGES_FIELDS)(
      "pending interrupt after user turns that follow the last call (%s): the read keeps that call open",
      async (field) => {
        // A reply that takes the id of the guarded one replaces it in place (see test/agents/human-in-the-loop):
        // the user turns follow the call the interrupt guards. An earlier call left open is still answered.
        const { inner, sanitizer } = await setup();
        const build = (checkpointer: BaseCheckpointSaver) =>
          new StateGraph(messagesState("messages", field) as typeof MessagesAnnotation)
            .addNode("agent", () => ({ messages: [calls("a0", "c0"), human("h1"), calls("a1", "c1"), human("h2")] }))
            .addNode("approve", () => (interrupt("approve c1?"), {}))
            .addEdge(START, "agent")
            .addEdge("agent", "approve")
            .addEdge("approve", END)
            .compile({ checkpointer });
        const config = { configurable: { thread_id: "guarded" } };
        await build(inner).invoke({ messages: [human("h0")] }, config);
        const read = async (override?: "repair") =>
          (await build(sanitizer).getState({ configurable: { ...config.configurable, sanitizer: override } })).values
            .messages as BaseMessage[];
        const paused = await read();
        expect(paused.map((m) => (isSyntheticMessage(m) ? `${m.type} (synthetic)` : `${m.type}:${m.id}`))).toEqual([
          "human:h0",
          "ai:a0",
          "tool (synthetic)",
          "ai (synthetic)",
          "human:h1",
          "ai:a1",
          "human:h2",
        ]);
        if (field === "MessagesValue") {
          const listed = [];
          for await (const t of sanitizer.list(config, { limit: 1 })) listed.push(shape(messagesOf(t)));
          expect(listed).toEqual([shape(paused)]);
        }
        // Told to repair, the read answers the call as a new turn would.
        const repaired = await read("repair");
        expect(repaired.filter((m) => m.type === "tool").map((m) => (m as ToolMessage).tool_call_id)).toEqual([
          "c0",
          "c1",
        ]);
      },
    );

    it("getTuple, pending tasks and no interrupt (cancelled run): repairs the tail", async () => {
      const { sanitizer, events } = await setup();
      await cancelFirstTurn(sanitizer, "during-tools", "cancelled");
      const messages = messagesOf(await sanitizer.getTuple({ configurable: { thread_id: "cancelled" } }));
      expect(messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "tool", "ai"]);
      expect(events.map((e) => [e.operation, e.tail, e.channel, e.threadId, e.checkpointNs])).toEqual([
        ["getTuple", "stopped", "messages", "cancelled", ""],
      ]);
      expect(events[0]!.repairs.map((r) => r.code)).toEqual(["B", "B", "C"]);
    });

    it("getTuple, latest checkpoint written by updateState: preserves the tail", async () => {
      const { inner, sanitizer } = await setup();
      await cancelFirstTurn(inner, "during-tools", "updated");
      const graph = reactGraph({ model: agentModel("openai"), tools: {} }).compile(inner);
      await graph.updateState({ configurable: { thread_id: "updated" } }, { messages: [] }, "agent");
      const tuple = await sanitizer.getTuple({ configurable: { thread_id: "updated" } });
      expect(tuple!.metadata!.source).toBe("update");
      expect(messagesOf(tuple).map((m) => m.type)).toEqual(["human", "ai"]);
    });

    it("getTuple with a checkpoint_id (time travel): preserves the tail", async () => {
      const { inner, sanitizer } = await setup();
      await cancelFirstTurn(inner, "during-tools", "travel");
      const latest = await inner.getTuple({ configurable: { thread_id: "travel" } });
      const addressed = await sanitizer.getTuple(latest!.config);
      expect(addressed!.config.configurable!.checkpoint_id).toBe(latest!.checkpoint.id);
      expect(messagesOf(addressed).map((m) => m.type)).toEqual(["human", "ai"]);
    });

    it("list: preserves every tail and repairs only what comes before it", async () => {
      const { inner, sanitizer, events } = await setup();
      await cancelFirstTurn(inner, "during-tools", "history");
      // On the raw saver the next turn fails, leaving a checkpoint whose history is broken before its tail.
      await expect(nextTurn(inner, "anthropic", "history", "hello?")).rejects.toThrow(/tool_use/);
      const raw: BaseMessage[][] = [];
      for await (const t of inner.list({ configurable: { thread_id: "history" } })) raw.push(messagesOf(t) ?? []);
      const listed: BaseMessage[][] = [];
      for await (const t of sanitizer.list({ configurable: { thread_id: "history" } }))
        listed.push(messagesOf(t) ?? []);

      expect(listed).toHaveLength(raw.length);
      listed.forEach((messages, i) => {
        const rawTail = raw[i]!.slice(findTailStart(raw[i]!));
        expect(messages.slice(messages.length - rawTail.length)).toEqual(rawTail);
      });
      expect(shape(listed[0]!).map((s) => s.split(":")[0])).toEqual(["human", "ai", "tool", "tool", "ai", "human"]);
      expect(events.every((e) => e.operation === "list" && e.tail === "resumable")).toBe(true);
    });

    it("a thread that was never broken reads exactly as through the raw saver, by getTuple and list", async () => {
      const { inner, sanitizer, events } = await setup();
      await nextTurn(sanitizer, "anthropic", "healthy");
      await nextTurn(sanitizer, "anthropic", "healthy", "And in Rome?");
      const config = { configurable: { thread_id: "healthy" } };
      expect(await sanitizer.getTuple(config)).toEqual(await inner.getTuple(config));
      const all = async (s: BaseCheckpointSaver) => {
        const out = [];
        for await (const t of s.list(config)) out.push(t);
        return out;
      };
      expect(await all(sanitizer)).toEqual(await all(inner));
      expect(events).toEqual([]);
    });

    describe("per-call override in configurable.tailPolicy", () => {
      it('"off" returns what the raw saver returns', async () => {
        const { inner, sanitizer } = await setup();
        await cancelFirstTurn(inner, "during-tools", "o");
        const config = { configurable: { thread_id: "o", tailPolicy: "off" } };
        expect(await sanitizer.getTuple(config)).toEqual(await inner.getTuple(config));
      });

      it('"preserve" keeps the tail of a cancelled run for invoke(null)', async () => {
        const { sanitizer } = await setup();
        await cancelFirstTurn(sanitizer, "during-tools", "p");
        const tuple = await sanitizer.getTuple({ configurable: { thread_id: "p", tailPolicy: "preserve" } });
        expect(messagesOf(tuple).map((m) => m.type)).toEqual(["human", "ai"]);
      });

      it('"repair" closes the tail of a finished or addressed checkpoint', async () => {
        const { inner, sanitizer } = await setup();
        await cancelFirstTurn(inner, "during-tools", "r");
        const latest = await inner.getTuple({ configurable: { thread_id: "r" } });
        const tuple = await sanitizer.getTuple({
          configurable: { ...latest!.config.configurable, tailPolicy: "repair" },
        });
        expect(messagesOf(tuple).map((m) => m.type)).toEqual(["human", "ai", "tool", "tool", "ai"]);
      });

      it("an unknown value fails the call with a clear error", async () => {
        const { sanitizer } = await setup();
        await expect(sanitizer.getTuple({ configurable: { thread_id: "x", tailPolicy: "fix" } })).rejects.toThrow(
          'configurable.tailPolicy must be one of "auto", "repair", "preserve", "off", got "fix".',
        );
      });

      it("the old key, configurable.sanitizer, still works; tailPolicy wins when a call sets both", async () => {
        const { sanitizer } = await setup();
        await cancelFirstTurn(sanitizer, "during-tools", "k");
        const old = await sanitizer.getTuple({ configurable: { thread_id: "k", sanitizer: "preserve" } });
        expect(messagesOf(old).map((m) => m.type)).toEqual(["human", "ai"]);
        const both = await sanitizer.getTuple({
          configurable: { thread_id: "k", sanitizer: "off", tailPolicy: "preserve" },
        });
        expect(messagesOf(both).map((m) => m.type)).toEqual(["human", "ai"]);
        await expect(sanitizer.getTuple({ configurable: { thread_id: "k", sanitizer: "fix" } })).rejects.toThrow(
          'configurable.sanitizer must be one of "auto", "repair", "preserve", "off", got "fix".',
        );
      });
    });
  });
}
