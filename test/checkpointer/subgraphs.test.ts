// A turn cancelled inside a subgraph: every namespace the next run reads is repaired.
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, type RepairEvent } from "../../src/index.js";
import { PROVIDER_PROFILES, rejectingProviders } from "../support/oracle/provider-rejections.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { MESSAGES_FIELDS } from "../support/graphs/react-graph.js";
import { STOP_POINTS, cancelFirstTurn, nextTurn, type Mount, type StopPoint } from "../support/graphs/scenarios.js";

const MOUNTS: Mount[] = ["subgraph", "persistent-subgraph"];
/** Delta threads run one stop per shape the tail can take (A, B, N): the rest is the same code path. */
const DELTA_STOPS: StopPoint[] = ["during-llm", "during-tools", "after-one-of-two-parallel-tools"];

for (const factory of saverFactories) {
  describe.each(MOUNTS.flatMap((mount) => MESSAGES_FIELDS.map((field) => ({ mount, field }))))(
    `agent as a $mount on ${factory.name}, conversation in $field`,
    ({ mount: where, field }) => {
      const open = saverPerTest(factory);
      const placement = { mount: where, field };

      describe.each(field === "MessagesValue" ? STOP_POINTS : DELTA_STOPS)("cancelled %s", (stop) => {
        it("wedges the thread on the raw saver", async () => {
          const raw = await open();
          await cancelFirstTurn(raw, stop, "t", placement);
          const outcomes = await Promise.allSettled(
            PROVIDER_PROFILES.map((p) => nextTurn(raw, p, "t", undefined, placement)),
          );
          expect(outcomes.some((o) => o.status === "rejected")).toBe(true);
        });

        it("continues through the sanitizer for every provider", async () => {
          const inner = await open();
          for (const profile of PROVIDER_PROFILES) {
            const thread = `t-${profile}`;
            await cancelFirstTurn(new SanitizingCheckpointer(inner), stop, thread, placement);
            const { messages, model } = await nextTurn(
              new SanitizingCheckpointer(inner),
              profile,
              thread,
              undefined,
              placement,
            );
            expect(model.rejections).toEqual([]);
            expect(messages.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
            expect(rejectingProviders(messages)).toEqual({});
          }
        });
      });

      it("repairs the namespace the subgraph reads its own history from", async () => {
        const events: RepairEvent[] = [];
        const sanitizer = new SanitizingCheckpointer(await open(), { onRepair: (e) => events.push(e) });
        await cancelFirstTurn(sanitizer, "during-tools", "ns", placement);
        await nextTurn(sanitizer, "anthropic", "ns", undefined, placement);
        const namespaces = [...new Set(events.map((e) => e.checkpointNs))];
        // A plain subgraph starts under a new task id, so only the parent's history needs repair;
        // a persistent one reloads its own namespace, which holds the unanswered tool calls.
        expect(namespaces).toEqual(where === "persistent-subgraph" ? ["", "assistant"] : [""]);
        const sub = events.find((e) => e.checkpointNs === "assistant");
        if (sub) expect(sub.repairs.map((r) => r.code)).toEqual(["B", "B", "C"]);
      });
    },
  );
}
