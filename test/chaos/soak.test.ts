// A few fixed seeds of the chaos soak (`npm run chaos` runs the full one): random-instant cancellations, drains and
// cancelled runs whose stream never closes on every backend, client and graph, with threads in flight at once
// through one sanitizer; worker processes killed or drained on SIGTERM on each store processes share; and the real
// Agent Server's cancels, double-texting, dropped streams and a cancelled run that keeps writing; Postgres and Redis
// restarted and a Redis Cluster master killed under running turns. The five figures, and the outage figures, must be
// zero.
import { describe, expect, it } from "vitest";
import { runChaos } from "./harness/chaos.js";
import { DEFAULTS } from "./harness/options.js";
import { report } from "./harness/report.js";

const SEEDS = ["2026-11-24", "langgraph"];
const ZERO = { rejected: 0, lost: 0, answeredTwice: 0, controlDiffs: 0, unloadable: 0 };

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
        killPhase: false,
        outagePhase: false,
        verbose: false,
      });
      const { metrics } = result;
      expect(metrics.totalCancellations, report(result)).toBeGreaterThanOrEqual(70);
      expect(metrics.faults.drain.total + metrics.faults.neverCloses.total, report(result)).toBeGreaterThan(0);
      expect(metrics.controlReads, report(result)).toBeGreaterThan(0);
      expect(metrics.realResultsChecked, report(result)).toBeGreaterThan(0);
      expect(metrics.zero, report(result)).toEqual(ZERO);
    },
    240_000,
  );

  it("seed kills: worker processes killed and drained on SIGTERM mid-run, the next action in another process", async () => {
    const result = await runChaos({
      ...DEFAULTS,
      seed: "kills",
      inProcess: false,
      server: false,
      outagePhase: false,
      kills: 8,
      killThreads: 2,
      verbose: false,
    });
    const { metrics } = result;
    expect(metrics.faults.kill.total, report(result)).toBeGreaterThanOrEqual(8);
    expect(metrics.checkpointsLoaded, report(result)).toBeGreaterThan(0);
    expect(metrics.zero, report(result)).toEqual(ZERO);
  }, 300_000);

  it("seed outages: Postgres and Redis restarted and a Cluster master killed mid-turn, the app carrying on", async () => {
    const result = await runChaos({
      ...DEFAULTS,
      seed: "outages",
      inProcess: false,
      killPhase: false,
      server: false,
      outages: 2,
      outageThreads: 3,
      verbose: false,
    });
    const { metrics } = result;
    expect(
      metrics.outages.map((f) => [f.backend, f.outages]),
      report(result),
    ).toEqual([
      ["FastPostgresSaver, Postgres restarted", 2],
      ["IORedisSaver, Redis restarted", 2],
      ["IORedisSaver, Cluster master killed", 2],
    ]);
    for (const figures of metrics.outages)
      expect(figures, report(result)).toMatchObject({ lost: 0, unloadable: 0, rejected: 0, landedAfterFailure: 0 });
    expect(metrics.failed, report(result)).toBe(false);
  }, 300_000);
});
