// createAgent and createDeepAgent turns cancelled mid-stream, mid-tools and after one of two parallel tools,
// then a new user message: wedged on the raw saver, accepted through the SanitizingCheckpointer, on every backend.
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { cancelAgentTurn, nextAgentTurn, type AgentKind } from "../support/agents.js";
import { PROVIDER_PROFILES, rejectingProviders, type ProviderProfile } from "../support/provider-rules.js";
import { saverFactories, saverPerTest } from "../support/savers.js";
import { agentModel, type StopPoint } from "../support/scenarios.js";

const STOPS = ["during-llm", "during-tools", "after-one-of-two-parallel-tools"] as const satisfies readonly StopPoint[];
type Stop = (typeof STOPS)[number];

/**
 * Which providers reject the next turn's history on the raw saver. deepagents' PatchToolCalls answers the
 * dangling calls itself, but leaves the tool results unclosed before the new HumanMessage (Mistral, Bedrock),
 * and answers the finished parallel call with "cancelled" instead of its real result.
 */
const RAW_REJECTED_BY: Record<AgentKind, Record<Stop, ProviderProfile[]>> = {
  createAgent: {
    "during-llm": ["bedrock", "gemini"],
    "during-tools": [...PROVIDER_PROFILES],
    "after-one-of-two-parallel-tools": [...PROVIDER_PROFILES],
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
  });
}
