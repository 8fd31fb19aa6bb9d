// The clean check and the rebuild read the same rules: a history the check passes is rebuilt as it is, and one it
// fails is changed. Over every generator of histories, every tail mode, provider and a named model (fast-check).
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ProviderChoice, RepairSettings, TailKind } from "../../../src/index.js";
import { PROVIDER_NAMES } from "../../../src/repair/rules/provider-patterns.js";
import { cleanCheckAndRebuild } from "../../../src/repair/repair-messages.js";
import { resolveRepairSettings } from "../../../src/repair/settings.js";
import {
  anyHistory,
  cleanHistory,
  cleanRequestHistory,
  roleOrderHistory,
} from "../../support/generators/arbitraries.js";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 500) };
const anyTail = fc.constantFrom<TailKind>("stopped", "finished", "resumable", "request");
const anyProvider = fc.constantFrom<ProviderChoice | undefined>(undefined, ...PROVIDER_NAMES);
const anyModel = fc.constantFrom(undefined, "claude-sonnet-4-5", "claude-3-7-sonnet-20250219", "gpt-5", "gemini-3-pro");
const anyHistoryOfEveryKind = fc.oneof(anyHistory, cleanHistory, cleanRequestHistory, roleOrderHistory);

/** What the clean check under `check` and the rebuild under `rebuild` said of `history`, when they disagree. */
function disagreement(
  history: BaseMessage[],
  tail: TailKind,
  check: RepairSettings,
  rebuild = check,
  inputStart?: number,
) {
  const { clean } = cleanCheckAndRebuild(history, resolveRepairSettings(check), tail, inputStart);
  const { rebuilt } = cleanCheckAndRebuild(history, resolveRepairSettings(rebuild), tail, inputStart);
  const unchanged =
    rebuilt.repairs.length === 0 &&
    rebuilt.messages.length === history.length &&
    rebuilt.messages.every((m, i) => m === history[i]);
  return clean === unchanged ? undefined : { clean, repairs: rebuilt.repairs.map((r) => `${r.code} ${r.action}`) };
}

describe("the clean check", () => {
  it("passes exactly the histories the rebuild leaves as they are", () => {
    fc.assert(
      fc.property(anyHistoryOfEveryKind, anyTail, anyProvider, anyModel, (history, tail, provider, model) => {
        expect(disagreement(history, tail, { provider, model })).toBeUndefined();
      }),
      RUNS,
    );
  });

  it("passes exactly the histories the rebuild leaves as they are, with a run's input from any point on", () => {
    const withInput = anyHistoryOfEveryKind.chain((history) =>
      fc.tuple(fc.constant(history), fc.integer({ min: 0, max: history.length })),
    );
    const storedTail = fc.constantFrom<TailKind>("stopped", "finished", "request");
    fc.assert(
      fc.property(withInput, storedTail, anyProvider, ([history, inputStart], tail, provider) => {
        expect(disagreement(history, tail, { provider }, { provider }, inputStart)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it("is caught when it reads other rules than the rebuild", () => {
    // Two user turns in a row, finished: clean with no provider's rules, a marker reply (A) under Gemini's.
    const history = [
      new HumanMessage({ id: "h1", content: "a document" }),
      new HumanMessage({ id: "h2", content: "?" }),
    ];
    expect(disagreement(history, "finished", {})).toBeUndefined();
    expect(disagreement(history, "finished", { provider: "gemini" })).toBeUndefined();
    expect(disagreement(history, "finished", {}, { provider: "gemini" })).toEqual({
      clean: true,
      repairs: ["A inserted", "A inserted"],
    });
  });
});
