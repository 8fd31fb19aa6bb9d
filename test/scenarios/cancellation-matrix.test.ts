// Source 000/001: a ReAct turn cancelled at every point where a run can stop, then a new user message.
// On the raw saver the fixture must reproduce the failure; through the sanitizer every provider accepts.
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, isSyntheticMessage } from "../../src/index.js";
import { PROVIDER_PROFILES, rejectingProviders, type ProviderProfile } from "../support/provider-rules.js";
import { saverFactories, saverPerTest } from "../support/savers.js";
import { LOOKUP_RESULT, STOP_POINTS, cancelFirstTurn, nextTurn, type StopPoint } from "../support/scenarios.js";
import { ProviderRejection } from "../support/strict-chat-model.js";

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
  describe(`a cancelled turn on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    describe.each(STOP_POINTS)("cancelled %s", (stop) => {
      describe.each(Object.entries(THREAD_SCHEMES))("thread keyed by %s", (_, threadId) => {
        it("wedges the thread on the raw saver for exactly the providers that reject its shape", async () => {
          const raw = await open();
          for (const profile of PROVIDER_PROFILES) {
            // Each provider gets its own freshly broken thread, so one's next turn cannot mend another's.
            expect(await cancelFirstTurn(raw, stop, threadId(profile))).toMatchObject({ name: "AbortError" });
            const outcome = nextTurn(raw, profile, threadId(profile));
            if (RAW_REJECTED_BY[stop].includes(profile)) await expect(outcome).rejects.toBeInstanceOf(ProviderRejection);
            else await expect(outcome).resolves.toBeDefined();
          }
        });

        it.each(PROVIDER_PROFILES)("continues through the sanitizer with a %s model", async (profile) => {
          const sanitized = new SanitizingCheckpointer(await open());
          await cancelFirstTurn(sanitized, stop, threadId(profile));
          const { messages, model } = await nextTurn(sanitized, profile, threadId(profile));
          expect(model.rejections).toEqual([]);
          expect(messages.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
          expect(rejectingProviders(messages)).toEqual({});
        });
      });
    });

    it("answers with the finished sibling's real result instead of a placeholder (pattern N)", async () => {
      const inner = await open();
      await cancelFirstTurn(inner, "after-one-of-two-parallel-tools", "t-n");
      const raw = await inner.getTuple({ configurable: { thread_id: "t-n" } });
      expect(raw!.pendingWrites!.some(([, channel]) => channel === "messages")).toBe(true);

      const sanitized = new SanitizingCheckpointer(inner);
      const repaired = await sanitized.getTuple({ configurable: { thread_id: "t-n" } });
      expect(repaired!.pendingWrites!.some(([, channel]) => channel === "messages")).toBe(false);

      const { messages } = await nextTurn(sanitized, "anthropic", "t-n");
      const results = messages.filter((m) => m.type === "tool");
      expect(results.map((m) => [m.content, isSyntheticMessage(m)])).toEqual([
        ["[No result was recorded for this tool call.]", true],
        [LOOKUP_RESULT, false],
      ]);
    });

    it("stores the repair with the next turn, not on read", async () => {
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
  });
}
