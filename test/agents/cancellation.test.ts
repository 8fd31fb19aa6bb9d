// createAgent and createDeepAgent turns cancelled mid-stream, mid-tools and after one of two parallel tools,
// or failed by a tool-call limit, then a new user message: wedged on the raw saver, accepted through the
// SanitizingCheckpointer, on every backend.
import { HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { ToolCallLimitExceededError, toolCallLimitMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { buildAgent, cancelAgentTurn, nextAgentTurn, threadConfig, type AgentKind } from "../support/graphs/agents.js";
import { rejectingProviders, WIRE_PROFILES, type WireProfile } from "../support/oracle/provider-rejections.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { FIRST_QUESTION, agentModel, type StopPoint } from "../support/graphs/scenarios.js";

const STOPS = ["during-llm", "during-tools", "after-one-of-two-parallel-tools"] as const satisfies readonly StopPoint[];
type Stop = (typeof STOPS)[number];

/**
 * Which providers reject the next turn's history on the raw saver. deepagents' PatchToolCalls answers the
 * dangling calls itself, but leaves the tool results unclosed before the new HumanMessage (Mistral, Bedrock),
 * and answers the finished parallel call with "cancelled" instead of its real result.
 */
const RAW_REJECTED_BY: Record<AgentKind, Record<Stop, WireProfile[]>> = {
  createAgent: {
    "during-llm": ["bedrock", "gemini"],
    "during-tools": [...WIRE_PROFILES],
    "after-one-of-two-parallel-tools": [...WIRE_PROFILES],
  },
  createDeepAgent: {
    "during-llm": ["bedrock", "gemini"],
    "during-tools": ["bedrock", "mistral"],
    "after-one-of-two-parallel-tools": ["bedrock", "mistral"],
  },
};

for (const factory of saverFactories) {
  describe(`a cancelled agent turn on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    describe.each<AgentKind>(["createAgent", "createDeepAgent"])("built with %s", (kind) => {
      describe.each(STOPS)("cancelled %s", (stop) => {
        // One strict model judges the run; the history it was sent is checked against every provider's rules.
        it("wedges the thread on the raw saver for exactly the providers that reject its shape", async () => {
          const raw = await open();
          expect(await cancelAgentTurn(kind, raw, stop, "t")).toMatchObject({ name: "AbortError" });
          const model = agentModel("bedrock");
          await expect(nextAgentTurn(kind, raw, model, "t")).rejects.toThrow("bedrock 400");
          expect(Object.keys(rejectingProviders(model.seen[0]!))).toEqual(RAW_REJECTED_BY[kind][stop]);
        });

        it("continues through the sanitizer, accepted by every provider", async () => {
          const sanitized = new SanitizingCheckpointer(await open());
          await cancelAgentTurn(kind, sanitized, stop, "t");
          const model = agentModel("bedrock");
          const messages = await nextAgentTurn(kind, sanitized, model, "t");
          expect(model.rejections).toEqual([]);
          expect(rejectingProviders(model.seen[0]!)).toEqual({});
          expect(messages.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
          expect(rejectingProviders(messages)).toEqual({});
        });
      });
    });

    it('a run failed by toolCallLimitMiddleware (exitBehavior "error"): wedged raw, accepted through the sanitizer', async () => {
      // The limit throws after the model's AIMessage was stored, so its calls are never answered.
      const limit = () => [toolCallLimitMiddleware({ threadLimit: 1, exitBehavior: "error" })];
      const failFirstTurn = async (checkpointer: BaseCheckpointSaver) => {
        const agent = buildAgent("createAgent", { model: agentModel("bedrock"), checkpointer, middleware: limit() });
        const run = agent.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, threadConfig("t"));
        await expect(run).rejects.toBeInstanceOf(ToolCallLimitExceededError);
      };
      const raw = await open();
      await failFirstTurn(raw);
      const rejected = agentModel("bedrock");
      await expect(nextAgentTurn("createAgent", raw, rejected, "t", { middleware: limit() })).rejects.toThrow(
        "bedrock 400",
      );
      expect(Object.keys(rejectingProviders(rejected.seen[0]!))).toEqual(WIRE_PROFILES);

      const sanitized = new SanitizingCheckpointer(await open());
      await failFirstTurn(sanitized);
      const accepted = agentModel("bedrock");
      const messages = await nextAgentTurn("createAgent", sanitized, accepted, "t", { middleware: limit() });
      expect(accepted.rejections).toEqual([]);
      expect(rejectingProviders(messages)).toEqual({});
    });
  });
}
