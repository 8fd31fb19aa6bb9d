// Source 000/001: a ReAct turn cancelled at every point where a run can stop, then a new user message.
// On the raw saver the fixture must reproduce the failure; through the sanitizer every provider accepts.
import type { BaseMessage } from "@langchain/core/messages";
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, isSyntheticMessage } from "../../src/index.js";
import { comparable } from "../support/comparisons/compare.js";
import { PROVIDER_PROFILES, rejectingProviders, type ProviderProfile } from "../support/oracle/provider-rejections.js";
import { MESSAGES_FIELDS, reactGraph } from "../support/graphs/react-graph.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import {
  LOOKUP_RESULT,
  STOP_POINTS,
  agentModel,
  cancelFirstTurn,
  nextTurn,
  type StopPoint,
} from "../support/graphs/scenarios.js";
import { ProviderRejection } from "../support/graphs/strict-chat-model.js";

/** Which providers reject the raw history at each stop point (the fixture must really reproduce the failure). */
const RAW_REJECTED_BY: Record<StopPoint, ProviderProfile[]> = {
  "before-llm": ["bedrock", "gemini"],
  "during-llm": ["bedrock", "gemini"],
  // An abort after the LLM returned but before its superstep committed discards the reply: the thread
  // ends in the user message, as when cancelled mid-stream.
  "after-llm": ["bedrock", "gemini"],
  "during-tools": ["anthropic", "openai", "bedrock", "gemini", "mistral"],
  "after-one-of-two-parallel-tools": ["anthropic", "openai", "bedrock", "gemini", "mistral"],
  "after-tools": ["bedrock", "mistral"],
};

/** Source 000's two tiers: the chat tier keys threads by chat session, the A2A tier by A2A context. */
const THREAD_SCHEMES = {
  "chat session id": (n: string) => `chat-session:01J9Z3${n}`,
  "A2A context id": (n: string) => `a2a-ctx-7f3e9c2a-${n}`,
};

for (const factory of saverFactories) {
  describe.each(MESSAGES_FIELDS)(`a cancelled turn on ${factory.name}, conversation in %s`, (field) => {
    const open = saverPerTest(factory);
    const delta = field === "MessagesDeltaValue";
    const where = { field };
    // The thread id only keys the store, whatever the field: delta threads run one scheme.
    const schemes = Object.entries(THREAD_SCHEMES).slice(0, delta ? 1 : undefined);

    describe.each(STOP_POINTS)("cancelled %s", (stop) => {
      describe.each(schemes)("thread keyed by %s", (_, threadId) => {
        it("wedges the thread on the raw saver for exactly the providers that reject its shape", async () => {
          const raw = await open();
          for (const profile of PROVIDER_PROFILES) {
            // Each provider gets its own freshly broken thread, so one's next turn cannot mend another's.
            expect(await cancelFirstTurn(raw, stop, threadId(profile), where)).toMatchObject({ name: "AbortError" });
            const outcome = nextTurn(raw, profile, threadId(profile), undefined, where);
            if (RAW_REJECTED_BY[stop].includes(profile))
              await expect(outcome).rejects.toBeInstanceOf(ProviderRejection);
            else await expect(outcome).resolves.toBeDefined();
          }
        });

        it.each(PROVIDER_PROFILES)("continues through the sanitizer with a %s model", async (profile) => {
          const sanitized = new SanitizingCheckpointer(await open());
          await cancelFirstTurn(sanitized, stop, threadId(profile), where);
          const { messages, model } = await nextTurn(sanitized, profile, threadId(profile), undefined, where);
          expect(model.rejections).toEqual([]);
          expect(messages.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
          expect(rejectingProviders(messages)).toEqual({});
        });
      });

      // The reference is a MessagesValue thread on MemorySaver, which stores at every checkpoint the list the
      // run had in memory. (Per-channel savers store a list channel only when it is written, so their input
      // checkpoint right after a repaired read still holds the unrepaired list.)
      it.runIf(delta)("reads, and continues into, the same history as a MessagesValue thread", async () => {
        const read = async (checkpointer: BaseCheckpointSaver, f: typeof field) => {
          const sanitized = new SanitizingCheckpointer(checkpointer);
          await cancelFirstTurn(sanitized, stop, "t", { field: f });
          const graph = reactGraph({ model: agentModel("anthropic"), tools: {}, field: f }).compile(sanitized);
          const cancelled = (await graph.getState({ configurable: { thread_id: "t" } })).values;
          const { messages } = await nextTurn(sanitized, "anthropic", "t", undefined, { field: f });
          const history = [];
          for await (const s of graph.getStateHistory({ configurable: { thread_id: "t" } })) history.push(s.values);
          return comparable({ cancelled, messages, history });
        };
        expect(await read(await open(), "MessagesDeltaValue")).toEqual(await read(new MemorySaver(), "MessagesValue"));
      });
    });

    it("answers with the finished sibling's real result instead of a placeholder (pattern N)", async () => {
      const inner = await open();
      await cancelFirstTurn(inner, "after-one-of-two-parallel-tools", "t-n", where);
      const raw = await inner.getTuple({ configurable: { thread_id: "t-n" } });
      expect(raw!.pendingWrites!.some(([, channel]) => channel === "messages")).toBe(true);

      const sanitized = new SanitizingCheckpointer(inner);
      const repaired = await sanitized.getTuple({ configurable: { thread_id: "t-n" } });
      // A delta channel's list is rebuilt after getTuple returned, so its used write stays; applied again
      // (getState), it replaces the message with the same id.
      expect(repaired!.pendingWrites!.some(([, channel]) => channel === "messages")).toBe(delta);

      const { messages } = await nextTurn(sanitized, "anthropic", "t-n", undefined, where);
      const results = messages.filter((m) => m.type === "tool");
      expect(results.map((m) => [m.content, isSyntheticMessage(m)])).toEqual([
        ["[No result was recorded for this tool call.]", true],
        [LOOKUP_RESULT, false],
      ]);
    });

    it.runIf(!delta)("stores the repair with the next turn, not on read", async () => {
      const inner = await open();
      const sanitized = new SanitizingCheckpointer(inner);
      await cancelFirstTurn(inner, "during-tools", "t-store");
      const config = { configurable: { thread_id: "t-store" } };
      const before = await inner.getTuple(config);
      await sanitized.getTuple(config);
      const after = await inner.getTuple(config);
      expect(after!.checkpoint.id).toBe(before!.checkpoint.id);
      expect((after!.checkpoint.channel_values.messages as BaseMessage[]).length).toBe(2);

      await nextTurn(sanitized, "anthropic", "t-store");
      const stored = (await inner.getTuple(config))!.checkpoint.channel_values.messages as BaseMessage[];
      expect(rejectingProviders(stored)).toEqual({});
      expect(stored.filter(isSyntheticMessage).map((m) => m.type)).toEqual(["tool", "tool", "ai"]);
    });

    it.runIf(delta)(
      "never writes on read, and reads the stored deltas the same way until the channel snapshots",
      async () => {
        const inner = await open();
        await cancelFirstTurn(inner, "during-tools", "t-store", where);
        const config = { configurable: { thread_id: "t-store" } };
        const state = (checkpointer: BaseCheckpointSaver) =>
          reactGraph({ model: agentModel("anthropic"), tools: {}, field })
            .compile(checkpointer)
            .getState(config);
        const sanitized = new SanitizingCheckpointer(inner);
        const before = await inner.getTuple(config);
        const first = (await state(sanitized)).values.messages as BaseMessage[];
        expect((await state(sanitized)).values.messages).toEqual(first);
        expect(await inner.getTuple(config)).toEqual(before);
        expect(first.filter(isSyntheticMessage).map((m) => m.type)).toEqual(["tool", "tool", "ai"]);

        // The next turn stores only its own deltas: the raw saver still rebuilds the broken turn,
        // mid-history now, and the sanitizer repairs it there with the same messages.
        const { messages } = await nextTurn(sanitized, "anthropic", "t-store", undefined, where);
        expect(rejectingProviders((await state(inner)).values.messages as BaseMessage[])).not.toEqual({});
        expect((await state(sanitized)).values.messages).toEqual(messages);
        expect(messages.slice(0, first.length)).toEqual(first);
      },
    );
  });
}
