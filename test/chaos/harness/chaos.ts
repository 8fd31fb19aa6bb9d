/**
 * One chaos run: the provider emulator, the in-process soak on each backend in turn, the kill phase on each backend
 * a process can share, the Agent Server part, then the outage phase (servers of its own restarted or failed over),
 * with the heap, the wrapper's maps and the latency sampled all along. `npm run chaos` and the test's fixed seeds
 * both run it.
 */
import { startEmulator } from "../../support/provider-emulator/index.js";
import { availableBackends, type Backend } from "./backends.js";
import { Metrics } from "./metrics.js";
import { Traces } from "./trace.js";
import { chaosScript } from "./model.js";
import { replayOf, type SoakOptions } from "./options.js";
import { soakServer } from "./server.js";
import { killBackends } from "./kills.js";
import { outageTargets, soakOutages } from "./outages.js";
import { drainRequests, soakBackend, wrapperMaps, type SoakState } from "./soak.js";

export interface ChaosResult {
  options: SoakOptions;
  metrics: Metrics;
  /** The backends that ran (a backend whose server is down is skipped, outside CI). */
  backends: Backend[];
  seconds: number;
}

/** Errors a library throws where no one can catch them, that a run lets through (and counts). */
export const KNOWN_UNHANDLED = {
  // @google/generative-ai rethrows inside a detached promise when a streamed response is cut (a cancelled run).
  "[GoogleGenerativeAI Error]: Error reading from the stream":
    "Gemini client: stream cut by a cancellation, rethrown unhandled",
} as Record<string, string>;

/**
 * Runs the soak `options` describe, printing progress with `log`. An unhandled rejection during the run is counted
 * when {@link KNOWN_UNHANDLED} names it, and handed to `onUnhandled` otherwise.
 */
export async function runChaos(
  options: SoakOptions,
  log: (line: string) => void = () => {},
  onUnhandled: (error: unknown) => void = () => {},
): Promise<ChaosResult> {
  const metrics = new Metrics();
  const unhandled = (error: unknown) => {
    const known = KNOWN_UNHANDLED[(error as Error)?.message ?? ""];
    if (known !== undefined) metrics.observed.add(known);
    onUnhandled(error);
  };
  process.on("unhandledRejection", unhandled);
  metrics.traces = new Traces(options.trace);
  metrics.onFailure = ({ figure, thread, detail }) =>
    log(`FAILED ${figure} on ${thread}: ${detail.slice(0, 400)}\n  replay: ${replayOf(options, thread)}`);
  const backends = options.inProcess || options.killPhase ? await availableBackends(options.backends) : [];
  const emulator = await startEmulator();
  emulator.script = chaosScript(options.frameDelayMs);
  const state: SoakState = { phase: "start", wrappers: new Set() };
  const sampler = setInterval(() => {
    const sample = metrics.sample(state.phase, wrapperMaps(state.wrappers));
    const p = (pair: [number, number]) => pair.map((ms) => (Number.isNaN(ms) ? "-" : ms.toFixed(1))).join("/");
    log(
      `${sample.t.toFixed(0)}s ${sample.phase}: ${metrics.totalCancellations} cancellations, ${metrics.turns} runs, ` +
        `heap ${sample.heapMb.toFixed(0)} MB, getTuple p50/p99 ${p(sample.sanitized)} ms (raw ${p(sample.raw)}), ` +
        `maps ${JSON.stringify(sample.maps)}, zero figures ${JSON.stringify(metrics.zero)}`,
    );
  }, options.sampleEveryMs);
  sampler.unref();
  try {
    if (options.inProcess) {
      for (const backend of backends) {
        log(`-- ${backend}: ${options.threads} threads in flight`);
        await soakBackend(backend, options, emulator, metrics, state);
      }
    }
    if (options.killPhase) {
      for (const backend of killBackends({ ...options, backends })) {
        log(`-- ${backend}, processes killed: ${options.killThreads} threads in flight, each in a worker process`);
        await soakBackend(backend, options, emulator, metrics, state, true);
      }
    }
    if (options.server) {
      log(`-- Agent Server: ${options.serverThreads} threads in flight`);
      state.phase = "Agent Server";
      state.wrappers = new Set();
      await soakServer(options, emulator, metrics, state);
    }
    if (options.outagePhase) {
      for (const target of outageTargets(options.backends)) {
        log(`-- outages: ${target.name}, ${options.outageThreads} threads in flight`);
        state.phase = target.name;
        state.wrappers = new Set();
        metrics.outages.push(await soakOutages(target, options, log));
      }
    }
  } finally {
    process.off("unhandledRejection", unhandled);
    clearInterval(sampler);
    drainRequests(emulator, metrics);
    await emulator.close();
  }
  return { options, metrics, backends, seconds: (performance.now() - metrics.started) / 1000 };
}
