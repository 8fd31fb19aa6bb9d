/**
 * The soak, one backend at a time: every graph of the backend compiled with one SanitizingCheckpointer over one
 * saver (its connection pool), protected by one `sanitizeGraph` (a factory, so that all its graphs share the run
 * tracker and the wrapper it reads through), `threads` threads in flight until the backend's share of the
 * cancellations is reached; or, in the kill phase (kills.ts), threads run in worker processes on a shared
 * store until the backend's share of the kills is reached, and this process reads them. The provider emulator
 * answers every client; its requests are checked as they come.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { SanitizingCheckpointer, sanitizeGraph } from "../../../src/index.js";
import { chatModel, type Client, type ProviderEmulator } from "../../support/provider-emulator/index.js";
import { BACKEND_LABELS, openBackend, type Backend } from "./backends.js";
import { killBackends, openSharedBackend, type KillBackend } from "./kills.js";
import { requestAnsweredTwice } from "./checks.js";
import { asChaosGraph, buildGraph, type ChaosGraph, type GraphKind } from "./graphs.js";
import type { MapSizes, Metrics } from "./metrics.js";
import { threadOfRequest } from "./model.js";
import type { SoakOptions } from "./options.js";
import { Random } from "./random.js";
import { Estimates, IN_PROCESS, runThread } from "./thread.js";

/** Gemini's known upstream rejection of parallel results (docs/providers.md): reported, never counted. */
const GEMINI_PARALLEL = "the number of function response parts is equal to the number of function call parts";

/** Checks and forgets the requests the emulator got so far: provider rejections and calls answered twice. */
export function drainRequests(emulator: ProviderEmulator, metrics: Metrics): void {
  for (const request of emulator.requests.splice(0)) {
    const thread = threadOfRequest(request.body) ?? "?";
    if (request.status === 400) {
      if (request.provider === "gemini" && request.rejected?.includes(GEMINI_PARALLEL)) {
        metrics.observed.add("Gemini: parallel results sent as separate turns (upstream)");
      } else if (metrics.raceThreads.has(thread)) {
        metrics.observed.add("a cancelled run that keeps writing: a provider rejected a request");
        metrics.example("race: provider 400", thread, `${request.provider}: ${request.rejected}`);
      } else {
        metrics.providerRejections++;
        metrics.example("provider 400", thread, `${request.provider}: ${request.rejected}`);
      }
    }
    for (const callId of requestAnsweredTwice(request.body)) {
      if (metrics.raceThreads.has(thread))
        metrics.observed.add("a cancelled run that keeps writing: a request answered a call twice");
      else metrics.fail("answeredTwice", thread, `a ${request.provider} request answers ${callId} twice`);
    }
  }
}

/** The wrapper's private maps, read for their sizes only. */
export function wrapperMaps(wrappers: Iterable<SanitizingCheckpointer>): MapSizes {
  const sizes: MapSizes = { decisions: 0, running: 0, ended: 0 };
  for (const wrapper of wrappers) {
    const inside = wrapper as unknown as {
      decisions: { decisions: Map<unknown, unknown> };
      activity?: { running: Map<unknown, unknown>; ends: Map<unknown, unknown> };
    };
    sizes.decisions += inside.decisions.decisions.size;
    sizes.running += inside.activity?.running.size ?? 0;
    sizes.ended += inside.activity?.ends.size ?? 0;
  }
  return sizes;
}

/** What the soak shares with its sampler: the phase running and the wrappers it reads through. */
export interface SoakState {
  phase: string;
  wrappers: Set<SanitizingCheckpointer>;
}

/** Times every `getTuple` of `wrapper` (a sanitizeGraph wrapper the soak did not build) into `record`. */
function timeReads(wrapper: SanitizingCheckpointer, record: (ms: number) => void): void {
  const getTuple = wrapper.getTuple.bind(wrapper);
  wrapper.getTuple = async (config: RunnableConfig): Promise<CheckpointTuple | undefined> => {
    const start = performance.now();
    try {
      return await getTuple(config);
    } finally {
      record(performance.now() - start);
    }
  };
}

/** The label of `backend`'s phase: in process, or with its threads in worker processes that are killed. */
const phaseOf = (backend: Backend, kills: boolean) =>
  kills ? `${BACKEND_LABELS[backend]}, processes killed` : BACKEND_LABELS[backend];

/**
 * Runs the soak on `backend` until it has its share of the cancellations, or with `kills`, of the kills (or its
 * `only` threads).
 */
export async function soakBackend(
  backend: Backend,
  options: SoakOptions,
  emulator: ProviderEmulator,
  metrics: Metrics,
  state: SoakState,
  kills = false,
): Promise<void> {
  const phase = phaseOf(backend, kills);
  state.phase = phase;
  state.wrappers = new Set();
  const latency = metrics.latencyOf(phase);
  const traces = metrics.traces;
  const record = (ms: number) => latency.raw.record(ms);
  const trace = traces.enabled ? (thread: string, event: string) => traces.add(thread, event) : undefined;
  const workers = kills ? options.killThreads : options.threads;
  const open = kills
    ? await openSharedBackend(backend as KillBackend, workers, emulator.url, record, trace)
    : { ...(await openBackend(backend, record, trace)), runners: [IN_PROCESS] };
  const controls = new Set<string>();
  const checkpointer = new SanitizingCheckpointer(open.timed, {
    onRepair: (event) => {
      if (event.threadId === undefined) return;
      metrics.repairedThreads.add(event.threadId);
      const where = `${event.operation} ${event.checkpointNs || "root"} ${event.checkpointId} tail ${event.tail}`;
      traces.add(event.threadId, `  repaired ${where}: ${event.repairs.map((r) => `${r.code}@${r.index}`).join(" ")}`);
      // A thread never cancelled holds nothing to repair: a read that repaired it returned what raw does not.
      if (controls.has(event.threadId)) {
        const codes = [...new Set(event.repairs.map((r) => r.code))].join(" ");
        metrics.fail(
          "controlDiffs",
          event.threadId,
          `a ${event.operation} read (tail ${event.tail}) repaired it: ${codes}`,
        );
      }
    },
  });
  const models = new Map<Client, ReturnType<typeof chatModel>>();
  const modelOf = (client: Client) => {
    if (!models.has(client)) models.set(client, chatModel(client, emulator.url));
    return models.get(client)!;
  };
  // One protection for every graph of the backend: a factory's graphs share its run tracker and wrappers.
  const protect = sanitizeGraph((kind: GraphKind, client: Client) => buildGraph(kind, modelOf(client), checkpointer));
  const graphs = new Map<string, ChaosGraph>();
  const graphOf = (kind: GraphKind, client: Client): ChaosGraph => {
    const key = `${kind}/${client}`;
    let graph = graphs.get(key);
    if (graph === undefined) {
      graphs.set(key, (graph = asChaosGraph(protect(kind, client))));
      const wrapper = graph.state.checkpointer as SanitizingCheckpointer;
      if (!state.wrappers.has(wrapper)) {
        state.wrappers.add(wrapper);
        timeReads(wrapper, (ms) => latency.sanitized.record(ms));
      }
    }
    return graph;
  };
  const raws = new Map<GraphKind, ChaosGraph>();
  const rawOf = (kind: GraphKind): ChaosGraph => {
    if (!raws.has(kind)) raws.set(kind, asChaosGraph(buildGraph(kind, modelOf("openai"), open.saver)));
    return raws.get(kind)!;
  };

  const root = new Random(options.seed);
  const estimates = new Estimates();
  const more = kills
    ? () => metrics.faults.kill.get(phase) < Math.ceil(options.kills / killBackends(options).length)
    : () => metrics.cancellations.backend.get(phase) < Math.ceil(options.cancellations / options.backends.length);
  const soakThread = async (index: number, slot: number) => {
    const name = kills ? `${backend}-kill` : backend;
    const random = root.fork(`${name}/${index}`);
    const client = random.pick(options.clients);
    const kind = random.pick(options.graphs);
    const control = random.chance(options.controlShare);
    const id = `${name}-${index}`;
    if (control) controls.add(id);
    await runThread({
      id,
      random,
      phase,
      client,
      kind,
      control,
      graph: graphOf(kind, client),
      raw: rawOf(kind),
      saver: open.saver,
      runner: open.runners[slot % open.runners.length]!,
      options,
      metrics,
      estimates,
    });
    controls.delete(id);
    traces.drop(id);
  };
  try {
    await soakThreads({ workers, only: options.only, more }, emulator, metrics, soakThread);
  } finally {
    await open.close();
  }
}

/**
 * Runs `soakThread` on thread after thread, `workers` at a time (each worker its slot): the `only` threads, or new
 * ones while `more` says so. The emulator's requests are checked after each thread, and once more at the end.
 */
export async function soakThreads(
  { workers, only, more }: { workers: number; only?: readonly number[]; more: () => boolean },
  emulator: ProviderEmulator,
  metrics: Metrics,
  soakThread: (index: number, slot: number) => Promise<void>,
): Promise<void> {
  const queue = only ? [...only] : undefined;
  let nextIndex = 0;
  const nextThread = (): number | undefined => {
    if (queue) return queue.shift();
    return more() ? nextIndex++ : undefined;
  };
  const worker = async (slot: number) => {
    for (let index = nextThread(); index !== undefined; index = nextThread()) {
      await soakThread(index, slot);
      drainRequests(emulator, metrics);
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, (_, slot) => worker(slot)));
  } finally {
    drainRequests(emulator, metrics);
  }
}
