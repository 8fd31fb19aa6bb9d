// A run's input repaired with the stored history it follows (what sanitizeGraph's first read does), over random
// stored histories and what front ends send after a Stop (fast-check). The model gets what LangGraph's own reducer
// makes of the read's list and the run's input.
import { HumanMessage, type AIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { messagesStateReducer } from "@langchain/langgraph";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, type TailKind } from "../../../src/index.js";
import { repairWith } from "../../../src/repair/repair-messages.js";
import { repairWithInput } from "../../../src/checkpointer/run-input.js";
import { PROVIDER_NAMES } from "../../../src/repair/rules/provider-patterns.js";
import { resolveRepairSettings } from "../../../src/repair/settings.js";
import { anyHistory, cleanHistory, roleOrderHistory, storedAndInput } from "../../support/generators/arbitraries.js";
import { profilesOf } from "../../support/oracle/expect-accepted.js";
import { rejectingProviders, requestEndError, WIRE_PROFILES } from "../../support/oracle/provider-rejections.js";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 500) };
const storedTail = fc.constantFrom<TailKind>("stopped", "finished");

/** What the model gets: the reducer applied to copies, as it assigns ids to messages without one. */
const request = (stored: readonly BaseMessage[], input: readonly BaseMessage[]) =>
  messagesStateReducer([...stored], [...input]) as BaseMessage[];

const rejections = (messages: BaseMessage[], profiles: readonly (typeof WIRE_PROFILES)[number][]) => {
  const found: Record<string, string | undefined> = { ...rejectingProviders(messages, profiles) };
  for (const profile of profiles) found[`${profile} end`] = requestEndError(profile, messages);
  return Object.fromEntries(Object.entries(found).filter(([, error]) => error !== undefined));
};

/** Each turn's results in its calls' order, which the repair keeps (pattern E) and the oracle does not judge. */
function inCallOrder(messages: readonly BaseMessage[]): boolean {
  return messages.every((m, i) => {
    if (m.type !== "ai") return true;
    const ids = (m as AIMessage).tool_calls?.map((c) => c.id) ?? [];
    const after = messages.slice(i + 1);
    const end = after.findIndex((x) => x.type !== "tool");
    const order = after.slice(0, end < 0 ? after.length : end).map((r) => ids.indexOf((r as ToolMessage).tool_call_id));
    return order.every((at, k) => k === 0 || at > order[k - 1]!);
  });
}

describe("a run's input repaired with the history it follows", () => {
  it("makes a request the providers whose rules it was repaired under accept", () => {
    fc.assert(
      fc.property(
        storedAndInput,
        storedTail,
        fc.constantFrom(...PROVIDER_NAMES),
        ({ stored, input }, tail, provider) => {
          const repaired = repairWithInput(stored, input, resolveRepairSettings({ provider }), tail)!;
          expect(
            rejections(
              request(repaired.stored as BaseMessage[], repaired.input as BaseMessage[]),
              profilesOf(provider),
            ),
          ).toEqual({});
        },
      ),
      RUNS,
    );
  });

  it("changes nothing that every provider accepts as it is sent", () => {
    fc.assert(
      fc.property(storedAndInput, storedTail, ({ stored, input }, tail) => {
        const raw = request(stored, input);
        // Raw never holds the sanitizer's own messages: an input that echoes them is the next property's.
        fc.pre(!input.some(isSyntheticMessage));
        fc.pre(Object.keys(rejections(raw, WIRE_PROFILES)).length === 0 && inCallOrder(raw));
        const repaired = repairWithInput(stored, input, resolveRepairSettings({}), tail)!;
        expect(repaired.result.repairs.map((r) => `${r.code} ${r.action}`)).toEqual([]);
        expect(repaired.stored).toBe(stored);
        expect(repaired.input).toBe(input);
      }),
      RUNS,
    );
  });

  it("makes the same request whether the client sends its new message alone or after the state it read", () => {
    const next = new HumanMessage({ id: "next", content: "next question" });
    fc.assert(
      fc.property(
        fc.oneof(anyHistory, cleanHistory, roleOrderHistory),
        storedTail,
        fc.constantFrom(...PROVIDER_NAMES),
        (stored, tail, provider) => {
          const settings = resolveRepairSettings({ provider });
          const sent = (input: BaseMessage[]) => {
            const repaired = repairWithInput(stored, input, settings, tail)!;
            return request(repaired.stored as BaseMessage[], repaired.input as BaseMessage[]).map((m) => m.toDict());
          };
          const { messages, repairs } = repairWith(stored, settings, tail);
          // A call renamed on read (pattern I) goes back under its new id, which the stored results do not answer.
          fc.pre(!repairs.some((r) => r.code === "I"));
          const read = messages as BaseMessage[];
          expect(sent([...read.filter((m) => m.type !== "remove"), next])).toEqual(sent([next]));
        },
      ),
      RUNS,
    );
  });
});
