// createDeepAgent runs its own PatchToolCalls middleware (answers dangling calls in beforeAgent, rewriting the
// whole message list, and again in each model request). With the SanitizingCheckpointer underneath, and with
// sanitizeMessagesMiddleware added, every call is answered once and message ids hold still.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { AgentMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, isSyntheticMessage } from "../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../src/middleware/index.js";
import { buildAgent, cancelAgentTurn, nextAgentTurn, threadConfig } from "../support/graphs/agents.js";
import { rejectingProviders } from "../support/oracle/provider-rejections.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { FIRST_QUESTION, agentModel } from "../support/graphs/scenarios.js";

/** PatchToolCalls' answer to a dangling call. */
const PATCHED = /was cancelled - another message came in before it could be completed/;

const readMessages = async (checkpointer: BaseCheckpointSaver) =>
  (await checkpointer.getTuple(threadConfig("t")))!.checkpoint.channel_values.messages as BaseMessage[];

/** Every call of every AIMessage answered by exactly one ToolMessage. */
function expectOneAnswerPerCall(messages: BaseMessage[]) {
  const calls = messages.flatMap((m) =>
    m.type === "ai" ? ((m as { tool_calls?: { id: string }[] }).tool_calls ?? []).map((c) => c.id) : [],
  );
  const answers = messages.flatMap((m) => (m.type === "tool" ? [(m as { tool_call_id?: string }).tool_call_id] : []));
  expect(answers.sort()).toEqual(calls.sort());
}

for (const factory of saverFactories) {
  describe(`createDeepAgent with PatchToolCalls on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    describe.each([
      ["the checkpointer", false],
      ["the checkpointer and the middleware", true],
    ])("through %s", (_, withMiddleware) => {
      it.each(["during-tools", "after-one-of-two-parallel-tools"] as const)(
        "cancelled %s: one answer per call, and the ids read are the ids stored",
        async (stop) => {
          const sanitized = new SanitizingCheckpointer(await open());
          await cancelAgentTurn("createDeepAgent", sanitized, stop, "t");
          const read = await readMessages(sanitized);
          expect((await readMessages(sanitized)).map((m) => m.id)).toEqual(read.map((m) => m.id));

          const model = agentModel("mistral");
          const middleware = withMiddleware ? [sanitizeMessagesMiddleware()] : [];
          const messages = await nextAgentTurn("createDeepAgent", sanitized, model, "t", { middleware });
          expect(model.rejections).toEqual([]);
          // PatchToolCalls found nothing to patch: the read had answered every call already.
          expect(messages.some((m) => PATCHED.test(String(m.content)))).toBe(false);
          expectOneAnswerPerCall(messages);
          expect(messages.slice(0, read.length).map((m) => m.id)).toEqual(read.map((m) => m.id));
          expect(rejectingProviders(messages)).toEqual({});
        },
      );
    });

    describe("a new message instead of answering a pending approval", () => {
      const pausedThread = async (checkpointer: BaseCheckpointSaver, middleware: AgentMiddleware[] = []) => {
        const model = agentModel("mistral");
        const agent = buildAgent("createDeepAgent", {
          model,
          checkpointer,
          interruptOn: { search: true, lookup: true },
          middleware,
        });
        await agent.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, threadConfig("t"));
        return {
          model,
          send: (configurable = {}) =>
            agent.invoke(
              { messages: [new HumanMessage("Never mind, what time is it?")] },
              threadConfig("t", configurable),
            ),
        };
      };

      it("PatchToolCalls answers the calls but leaves them unclosed: rejected raw and through the checkpointer alone", async () => {
        for (const checkpointer of [await open(), new SanitizingCheckpointer(await open())]) {
          const { model, send } = await pausedThread(checkpointer);
          await expect(send()).rejects.toThrow("mistral 400: Unexpected role 'user' after role 'tool'");
          expect(Object.keys(rejectingProviders(model.seen.at(-1)!))).toEqual(["bedrock", "mistral"]);
        }
      });

      it("with the middleware: closed in the request, PatchToolCalls' answers kept in state", async () => {
        const { model, send } = await pausedThread(new SanitizingCheckpointer(await open()), [
          sanitizeMessagesMiddleware(),
        ]);
        const { messages } = await send();
        expect(model.rejections).toEqual([]);
        expect(
          model.seen
            .at(-1)!
            .filter(isSyntheticMessage)
            .map((m) => m.type),
        ).toEqual(["ai"]);
        expect(messages.filter((m) => PATCHED.test(String(m.content)))).toHaveLength(2);
        expect(messages.some(isSyntheticMessage)).toBe(false);
        expectOneAnswerPerCall(messages);
      });

      it('with configurable.tailPolicy "repair": the checkpointer answers and closes, PatchToolCalls has nothing to do', async () => {
        const { model, send } = await pausedThread(new SanitizingCheckpointer(await open()));
        const { messages } = await send({ tailPolicy: "repair" });
        expect(model.rejections).toEqual([]);
        expect(messages.some((m) => PATCHED.test(String(m.content)))).toBe(false);
        expect(messages.filter(isSyntheticMessage).map((m) => m.type)).toEqual(["tool", "tool", "ai"]);
        expectOneAnswerPerCall(messages);
        expect(rejectingProviders(messages)).toEqual({});
      });
    });
  });
}
