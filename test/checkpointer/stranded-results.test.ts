// Pattern N across a next turn that is itself cancelled: the first turn is cancelled after one of two parallel tools
// finished (its result stranded in the checkpoint's pending writes), the next message is cancelled as soon as its
// input checkpoint is stored, and a third message follows. The finished result must still answer its call.
//
// That input checkpoint stores only the channels the input changed (`__start__`; the input reaches `messages` in the
// next step). MemorySaver and SQLite store every channel's value each time, so the read's repair, with the real result
// in the list, is stored with it. PostgresSaver and IORedisSaver store a channel's value only when its version
// changes: the checkpoint keeps the list as it was, and the stranded write stays on its parent, where the next read
// must find it.
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, isSyntheticMessage } from "../../src/index.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { LOOKUP_RESULT, cancelFirstTurn, cancelledAfterInput, nextTurn } from "../support/graphs/scenarios.js";

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

      const wrap = (inner: BaseCheckpointSaver) => new SanitizingCheckpointer(inner);
      expect(await cancelledAfterInput(saver, wrap, thread)).toBeInstanceOf(Error);

      const { messages } = await nextTurn(new SanitizingCheckpointer(saver), "openai", thread);
      const lookupCall = (messages[1] as { tool_calls?: { id: string; name: string }[] }).tool_calls!.find(
        (c) => c.name === "lookup",
      )!;
      const answers = messages.filter((m) => (m as { tool_call_id?: string }).tool_call_id === lookupCall.id);
      expect(answers.map((m) => [m.content, isSyntheticMessage(m)])).toEqual([[LOOKUP_RESULT, false]]);
    });
  });
}
