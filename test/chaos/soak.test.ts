// A few fixed seeds of the chaos soak (`npm run chaos` runs the full one): random-instant cancellations on every
// backend, client and graph, with threads in flight at once through one sanitizer, and the real Agent Server's
// cancels, double-texting, dropped streams and a cancelled run that keeps writing. The four figures must be zero.
import { describe, expect, it } from "vitest";
import { runChaos } from "../../chaos/chaos.js";
import { DEFAULTS } from "../../chaos/options.js";
import { report } from "../../chaos/report.js";

const SEEDS = ["2026-11-24", "langgraph"];

describe("the chaos soak, on fixed seeds", () => {
  it.each(SEEDS)(
    "seed %s: no next turn rejected, no real result lost, no call answered twice, no control diff",
    async (seed) => {
      const result = await runChaos({
        ...DEFAULTS,
        seed,
        cancellations: 60,
        threads: 12,
        serverCancellations: 10,
        serverThreads: 4,
        verbose: false,
      });
      const { metrics } = result;
      expect(metrics.totalCancellations, report(result)).toBeGreaterThanOrEqual(70);
      expect(metrics.controlReads, report(result)).toBeGreaterThan(0);
      expect(metrics.realResultsChecked, report(result)).toBeGreaterThan(0);
      expect(metrics.zero, report(result)).toEqual({ rejected: 0, lost: 0, answeredTwice: 0, controlDiffs: 0 });
    },
    240_000,
  );
});
