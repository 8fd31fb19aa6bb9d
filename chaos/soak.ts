/**
 * The in-process soak, one backend at a time: every graph of the backend compiled with one SanitizingCheckpointer
 * over one saver (its connection pool), protected by one `sanitizeGraph` (a factory, so that all its graphs share
 * the run tracker and the wrapper it reads through), `threads` threads in flight until the backend's share of the
 * cancellations is reached. The provider emulator answers every client; its requests are checked as they come.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { SanitizingCheckpointer, sanitizeGraph } from "../src/index.js";
import { chatModel, type Client, type ProviderEmulator } from "../test/support/provider-emulator/index.js";
import { BACKEND_LABELS, openBackend, type Backend } from "./backends.js";
import { requestAnsweredTwice } from "./checks.js";
import { asChaosGraph, buildGraph, type ChaosGraph, type GraphKind } from "./graphs.js";
import type { MapSizes, Metrics } from "./metrics.js";
import { threadOfRequest } from "./model.js";
import type { SoakOptions } from "./options.js";
import { Random } from "./random.js";
import { Estimates, runThread } from "./thread.js";

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

/** Runs the in-process soak on `backend` until it has its share of the cancellations (or its `only` threads). */
export async function soakBackend(
  backend: Backend,
  options: SoakOptions,
  emulator: ProviderEmulator,
  metrics: Metrics,
  state: SoakState,
): Promise<void> {
  const phase = BACKEND_LABELS[backend];
  state.phase = phase;
  state.wrappers = new Set();
  const latency = metrics.latencyOf(phase);
  const traces = metrics.traces;
  const open = await openBackend(
    backend,
    (ms) => latency.raw.record(ms),
    traces.enabled ? (thread, event) => traces.add(thread, event) : undefined,
  );
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
  const target = Math.ceil(options.cancellations / options.backends.length);
  const soakThread = async (index: number) => {
    const random = root.fork(`${backend}/${index}`);
    const client = random.pick(options.clients);
    const kind = random.pick(options.graphs);
    const control = random.chance(options.controlShare);
    const id = `${backend}-${index}`;
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
      options,
      metrics,
      estimates,
    });
    controls.delete(id);
    traces.drop(id);
  };
  try {
    await soakThreads({ workers: options.threads, only: options.only, phase, target }, emulator, metrics, soakThread);
  } finally {
    await open.close();
  }
}

/**
 * Runs `soakThread` on thread after thread, `workers` at a time: the `only` threads, or new ones until `phase` has
 * `target` cancellations. The emulator's requests are checked after each thread, and once more at the end.
 */
export async function soakThreads(
  { workers, only, phase, target }: { workers: number; only?: readonly number[]; phase: string; target: number },
  emulator: ProviderEmulator,
  metrics: Metrics,
  soakThread: (index: number) => Promise<void>,
): Promise<void> {
  const queue = only ? [...only] : undefined;
  let nextIndex = 0;
  const nextThread = (): number | undefined => {
    if (queue) return queue.shift();
    return metrics.cancellations.backend.get(phase) < target ? nextIndex++ : undefined;
  };
  const worker = async () => {
    for (let index = nextThread(); index !== undefined; index = nextThread()) {
      await soakThread(index);
      drainRequests(emulator, metrics);
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    drainRequests(emulator, metrics);
  }
}
