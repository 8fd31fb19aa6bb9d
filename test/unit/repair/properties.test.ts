// Invariants of repairMessages over random histories (fast-check).
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSyntheticMessage, repairMessages, type TailKind } from "../../../src/index.js";
import { PROVIDER_NAMES } from "../../../src/repair/rules/provider-patterns.js";
import { findTailStart } from "../../../src/repair/walk/tail.js";
import {
  anyHistory,
  cleanHistory,
  cleanRequestHistory,
  roleOrderHistory,
} from "../../support/generators/arbitraries.js";
import { profilesOf } from "../../support/oracle/expect-accepted.js";
import {
  geminiSignatures,
  providerError,
  rejectingProviders,
  requestEndError,
  thinkingOfAnotherModel,
  WIRE_PROFILES,
} from "../../support/oracle/provider-rejections.js";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 500) };
const nextTurn = new HumanMessage({ id: "next", content: "next question" });
const snapshot = (messages: readonly BaseMessage[]) => JSON.stringify(messages.map((m) => m.toDict()));
const anyProvider = fc.constantFrom(...PROVIDER_NAMES);

describe("repairMessages invariants", () => {
  it("a repaired history, followed by a new user turn, is accepted by the providers whose rules it was repaired under", () => {
    fc.assert(
      fc.property(anyHistory, anyProvider, (history, provider) => {
        const { messages } = repairMessages(history, { provider });
        expect(rejectingProviders([...messages, nextTurn] as BaseMessage[], profilesOf(provider))).toEqual({});
      }),
      RUNS,
    );
  });

  it("a broken run's history, followed by a new user turn, is accepted by OpenAI with no provider named", () => {
    fc.assert(
      fc.property(anyHistory, (history) => {
        const { messages } = repairMessages(history);
        expect(rejectingProviders([...messages, nextTurn] as BaseMessage[], profilesOf("openai"))).toEqual({});
      }),
      RUNS,
    );
  });

  it("only what is broken changes: a finished history that breaks only role order reads as stored", () => {
    fc.assert(
      fc.property(roleOrderHistory, fc.constantFrom<TailKind>("finished", "resumable"), (history, tail) => {
        expect(rejectingProviders([...history, nextTurn] as BaseMessage[], profilesOf("openai"))).toEqual({});
        const result = repairMessages(history, { tail });
        expect(result.repairs).toEqual([]);
        expect(result.messages).toBe(history);
        // Under every provider's rules, the same history is accepted by all of them.
        const strict = repairMessages(history, { tail: "finished", provider: "strictest" }).messages;
        expect(rejectingProviders([...strict, nextTurn] as BaseMessage[])).toEqual({});
      }),
      RUNS,
    );
  });

  it("a history repaired for a model call is accepted by its provider, and still ends in its last message", () => {
    fc.assert(
      fc.property(anyHistory, anyProvider, (history, provider) => {
        const { messages, repairs } = repairMessages(history, { tail: "request", provider });
        const request = messages as BaseMessage[];
        expect(rejectingProviders(request, profilesOf(provider))).toEqual({});
        for (const profile of profilesOf(provider)) expect(requestEndError(profile, request), profile).toBeUndefined();
        if (provider === "gemini" || provider === "strictest") expect(geminiSignatures(request)).toBeUndefined();
        // No reply is made up at the end: the model gives it. Only a placeholder result, or a user turn asking it to
        // go on after a reply (Z), may come last.
        const last = messages.at(-1) as BaseMessage | undefined;
        if (last !== undefined && isSyntheticMessage(last)) {
          expect(last.type === "tool" || (last.type === "human" && repairs.at(-1)?.code === "Z")).toBe(true);
        }
        const original = repairs.find((r) => r.message === last)?.original ?? last;
        if (history.at(-1)?.type === "human") expect(original).toBe(history.at(-1));
      }),
      RUNS,
    );
  });

  it("for the model named, no thinking block another model signed is left", () => {
    fc.assert(
      fc.property(anyHistory, fc.constantFrom<TailKind>("stopped", "request"), (history, tail) => {
        const { messages } = repairMessages(history, { tail, model: "claude-sonnet-4-5" });
        expect(thinkingOfAnotherModel(messages as BaseMessage[], "claude-sonnet-4-5")).toBeUndefined();
      }),
      RUNS,
    );
  });

  it("never changes a signed block: every signed thinking block of a rewritten reply is the stored one, in its order, and a finished server tool's use stays with its result", () => {
    type Block = { type?: string; signature?: unknown; data?: unknown; id?: unknown; tool_use_id?: unknown };
    const blocks = (m: unknown) => (m as BaseMessage).content as unknown as Block[];
    const signed = (m: unknown) =>
      Array.isArray(blocks(m))
        ? blocks(m).filter((b) => (b.type === "thinking" && b.signature) || (b.type === "redacted_thinking" && b.data))
        : [];
    const finishedPairs = (m: unknown) =>
      Array.isArray(blocks(m))
        ? blocks(m).filter(
            (b, i) =>
              (b.type === "server_tool_use" &&
                blocks(m)
                  .slice(i)
                  .some((r) => r.tool_use_id === b.id)) ||
              (typeof b.tool_use_id === "string" &&
                blocks(m)
                  .slice(0, i)
                  .some((u) => u.id === b.tool_use_id)),
          )
        : [];
    fc.assert(
      fc.property(
        anyHistory,
        fc.constantFrom<TailKind>("stopped", "resumable", "request"),
        anyProvider,
        (history, tail, provider) => {
          const { repairs } = repairMessages(history, { tail, provider });
          for (const { action, message, original } of repairs) {
            if (action !== "rewritten" || (original as BaseMessage).type !== "ai") continue;
            const kept = signed(message);
            expect(kept).toEqual(signed(original));
            kept.forEach((block, i) => expect(block).toBe(signed(original)[i]));
            finishedPairs(original).forEach((block) => expect(blocks(message)).toContain(block));
          }
        },
      ),
      RUNS,
    );
  });

  it("does no harm: what a provider accepted is still accepted, and what every provider accepted is left as is", () => {
    fc.assert(
      fc.property(anyHistory, fc.constantFrom<TailKind>("stopped", "resumable"), (history, tail) => {
        const before = [...history, nextTurn];
        const { messages, repairs } = repairMessages(history, { tail });
        const after = [...(messages as BaseMessage[]), nextTurn];
        const acceptedBefore = WIRE_PROFILES.filter((p) => providerError(p, before) === undefined);
        for (const profile of acceptedBefore) expect(providerError(profile, after), profile).toBeUndefined();
        // Parallel results in another order than the calls are accepted, and only put in call order (E).
        if (acceptedBefore.length === WIRE_PROFILES.length) expect(repairs.filter((r) => r.code !== "E")).toEqual([]);
      }),
      RUNS,
    );
  });

  it("with the tail preserved, the tail is kept as is and everything before it is accepted", () => {
    fc.assert(
      fc.property(anyHistory, anyProvider, (history, provider) => {
        const { messages } = repairMessages(history, { tail: "resumable", provider });
        const inTail = history.slice(findTailStart(history));
        const outTail = messages.slice(messages.length - inTail.length);
        outTail.forEach((m, i) => expect(m).toBe(inTail[i]));
        expect(
          rejectingProviders(messages.slice(0, messages.length - inTail.length) as BaseMessage[], profilesOf(provider)),
        ).toEqual({});
      }),
      RUNS,
    );
  });

  it.each<TailKind>(["stopped", "finished", "resumable", "request"])(
    "is idempotent and deterministic (tail %s)",
    (tail) => {
      fc.assert(
        fc.property(anyHistory, fc.option(anyProvider, { nil: undefined }), (history, provider) => {
          const first = repairMessages(history, { tail, provider });
          const again = repairMessages(first.messages, { tail, provider });
          expect(again.messages).toBe(first.messages);
          expect(again.repairs).toEqual([]);
          const twin = repairMessages(history, { tail, provider });
          expect(snapshot(twin.messages as BaseMessage[])).toBe(snapshot(first.messages as BaseMessage[]));
        }),
        RUNS,
      );
    },
  );

  it("keeps every message it does not report removed or rewritten, each once, and only moves tool results", () => {
    fc.assert(
      fc.property(anyHistory, fc.constantFrom<TailKind>("stopped", "resumable", "request"), (history, tail) => {
        const { messages, repairs } = repairMessages(history, { tail });
        const removed = new Set(repairs.filter((r) => r.action === "removed").map((r) => r.message));
        const copies = new Map(repairs.filter((r) => r.action === "rewritten").map((r) => [r.message, r.original]));
        // A rewritten copy stands where its original was: read the output with originals put back.
        const restored = messages.map((m) => copies.get(m) ?? m);
        const kept = history.filter((m) => !removed.has(m));
        const originals = restored.filter((m) => history.includes(m as BaseMessage));
        expect(new Set(originals).size).toBe(originals.length);
        expect(new Set(originals)).toEqual(new Set(kept));
        const notTools = (list: readonly unknown[]) => list.filter((m) => (m as BaseMessage).type !== "tool");
        expect(notTools(originals)).toEqual(notTools(kept));
        const inserted = messages.filter((m) => !history.includes(m as BaseMessage) && !copies.has(m));
        expect(inserted.every(isSyntheticMessage)).toBe(true);
      }),
      RUNS,
    );
  });

  it("reports each change where it happened", () => {
    fc.assert(
      fc.property(anyHistory, fc.constantFrom<TailKind>("stopped", "request"), (history, tail) => {
        const { messages, repairs } = repairMessages(history, { tail });
        const copyAt = new Map(repairs.filter((r) => r.action === "rewritten").map((r) => [r.index, r.original]));
        for (const r of repairs) {
          if (r.action === "removed") expect(history[r.index]).toBe(r.message);
          else if (r.action === "moved") expect(copyAt.get(r.index) ?? messages[r.index]).toBe(r.message);
          else expect(messages[r.index]).toBe(r.message);
          if (r.action === "moved" || r.action === "rewritten") expect(history[r.from!]).toBe(r.original ?? r.message);
        }
        expect(repairs.length === 0).toBe(messages === history);
      }),
      RUNS,
    );
  });

  it("never mutates its input", () => {
    fc.assert(
      fc.property(anyHistory, (history) => {
        const before = snapshot(history);
        const copy = [...history];
        repairMessages(history);
        repairMessages(history, { tail: "resumable" });
        repairMessages(history, { tail: "request" });
        expect(snapshot(history)).toBe(before);
        history.forEach((m, i) => expect(m).toBe(copy[i]));
      }),
      RUNS,
    );
  });

  it("returns a clean history as the same array, with no repairs", () => {
    fc.assert(
      fc.property(cleanHistory, fc.constantFrom<TailKind>("stopped", "finished", "resumable"), (history, tail) => {
        const result = repairMessages(history, { tail, provider: "strictest" });
        expect(result.messages).toBe(history);
        expect(result.repairs).toEqual([]);
      }),
      RUNS,
    );
  });

  it("returns a clean history that ends in the new input or in tool results as the same array for a model call", () => {
    fc.assert(
      fc.property(cleanRequestHistory, (history) => {
        const result = repairMessages(history, { tail: "request" });
        expect(result.messages).toBe(history);
        expect(result.repairs).toEqual([]);
      }),
      RUNS,
    );
  });

  it("never throws on arbitrary input, and returns what is not a message list as is", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = repairMessages(value as unknown[]);
        if (result.repairs.length === 0) expect(result.messages).toBe(value);
      }),
      RUNS,
    );
  });
});
