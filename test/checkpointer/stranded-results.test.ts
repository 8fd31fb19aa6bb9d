// Pattern N across a next turn that is itself cancelled: the first turn is cancelled after one of two parallel tools
// finished (its result stranded in the checkpoint's pending writes), the next message is cancelled as soon as its
// input checkpoint is stored, and a third message follows. The finished result must still answer its call.
//
// That input checkpoint stores only the channels the input changed (`__start__`; the input reaches `messages` in the
// next step). MemorySaver and SQLite store every channel's value each time, so the read's repair, with the real result
// in the list, is stored with it. PostgresSaver and IORedisSaver store a channel's value only when its version
// changes: the checkpoint keeps the list as it was, and the stranded write stays on its parent, where the next read
// must find it.
import { HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, isSyntheticMessage } from "../../src/index.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { LOOKUP_RESULT, agentModel, cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";

/**
 * `saver` until an input checkpoint is stored: then `stop` is aborted and nothing more is stored, as when the run is
 * cancelled (or its process goes away) right after that checkpoint, whatever the saver's timing.
 */
const stoppingAfterInput = (saver: BaseCheckpointSaver, stop: AbortController) =>
  new Proxy(saver, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop !== "put" && prop !== "putWrites") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        if (stop.signal.aborted) throw new Error("the run was cancelled");
        const stored = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (prop === "put" && (args[2] as { source?: string })?.source === "input") stop.abort();
        return stored;
      };
    },
  });

for (const factory of saverFactories) {
  describe(`a stranded result and a next turn cancelled after its input checkpoint, on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    it("the third message's history answers the finished call with its real result", async () => {
      const saver = await open();
      const thread = "stranded";
      expect(
        await cancelFirstTurn(new SanitizingCheckpointer(saver), "after-one-of-two-parallel-tools", thread),
      ).toBeInstanceOf(Error);
      const stranded = (await saver.getTuple({ configurable: { thread_id: thread } }))!.pendingWrites!;
      expect(
        stranded.some(([, channel, value]) => channel === "messages" && JSON.stringify(value).includes(LOOKUP_RESULT)),
      ).toBe(true);

      const stop = new AbortController();
      const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
      const graph = reactGraph({ model: agentModel("openai"), tools, fanOut: "send" }).compile(
        new SanitizingCheckpointer(stoppingAfterInput(saver, stop)),
      );
      const second = graph.invoke(
        { messages: [new HumanMessage("Are you there?")] },
        { configurable: { thread_id: thread }, signal: stop.signal, durability: "sync" },
      );
      await expect(second).rejects.toThrow();

      const { messages } = await nextTurn(new SanitizingCheckpointer(saver), "openai", thread);
      const lookupCall = (messages[1] as { tool_calls?: { id: string; name: string }[] }).tool_calls!.find(
        (c) => c.name === "lookup",
      )!;
      const answers = messages.filter((m) => (m as { tool_call_id?: string }).tool_call_id === lookupCall.id);
      expect(answers.map((m) => [m.content, isSyntheticMessage(m)])).toEqual([[LOOKUP_RESULT, false]]);
    });
  });
}
