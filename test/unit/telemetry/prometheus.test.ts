// The Prometheus example, scraped over HTTP on 127.0.0.1 as Prometheus scrapes it, after a cancelled run and the
// repaired read of the next message.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMetricsServer } from "../../../examples/prometheus/metrics-server.js";
import { cancelledThenRepaired } from "../../../examples/prometheus/scenario.js";

/** The value of every sample of `name` whose labels include `labels`, from Prometheus' text format. */
function samples(text: string, name: string, labels: Record<string, string>): number[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`))
    .filter((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .map((line) => Number(line.slice(line.lastIndexOf(" ") + 1)));
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

let server: Awaited<ReturnType<typeof startMetricsServer>>;
beforeAll(async () => {
  server = await startMetricsServer(0);
});
afterAll(() => server.stop());

describe("the Prometheus example", () => {
  it("serves the read and repair counters on /metrics after a cancelled run and a repaired read", async () => {
    await cancelledThenRepaired();
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const reads = "checkpoint_sanitizer_reads_total";
    expect(sum(samples(text, reads, { checkpoint_sanitizer_read_outcome: "repaired" }))).toBe(1);
    expect(
      samples(text, reads, {
        checkpoint_sanitizer_read_outcome: "repaired",
        checkpoint_sanitizer_read_patterns: "B,C",
      }),
    ).toEqual([1]);
    expect(sum(samples(text, reads, { checkpoint_sanitizer_read_outcome: "clean" }))).toBeGreaterThan(0);
    const repairs = "checkpoint_sanitizer_repairs_total";
    expect(samples(text, repairs, { checkpoint_sanitizer_repair_code: "B" })).toEqual([2]);
    expect(samples(text, repairs, { checkpoint_sanitizer_repair_code: "C" })).toEqual([1]);
    expect(sum(samples(text, "checkpoint_sanitizer_read_duration_count", {}))).toBe(sum(samples(text, reads, {})));
    expect(text).not.toContain("prometheus-example");
  });
});
