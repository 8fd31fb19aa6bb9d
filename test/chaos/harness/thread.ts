/**
 * The scenario of one thread: a few user actions (a new message, a resume at `interrupt()`, a new message instead
 * of that resume, or, after a run that stopped, `invoke(null)` to carry it on), each run streamed token by token as
 * a chat UI does and, on faulted threads, many of them stopped at an instant drawn uniformly over the run's expected
 * length: cancelled, drained, or their process killed (see {@link Runner}). Then a closing turn that must be
 * answered. Along the way it records the real tool results each turn started from, and at the end checks that the
 * thread's history answers each of them with its real result; after each fault, every checkpoint of the thread must
 * load raw; control threads, never faulted, are read through the sanitizer and raw after every turn (and while
 * their runs work) and must read the same.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command, GraphDrained, RunControl } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { hasPendingInterrupt } from "../../../src/index.js";
import type { Client } from "../../support/provider-emulator/index.js";
import { settled } from "../../support/savers/settled.js";
import { answeredTwice, answerOf, holdsRepair, realResults, storedMessages, type RealResult } from "./checks.js";
import type { ChaosGraph, GraphKind } from "./graphs.js";
import type { Fault, Metrics } from "./metrics.js";
import { userText, type TurnDirective } from "./model.js";
import { RunProgress, type Landing } from "./progress.js";
import type { Random } from "./random.js";
import { releaseHungTools, useTools, type ToolName } from "./tools.js";

/** How threads behave (from the CLI's options). */
export interface ThreadOptions {
  /** The longest a tool works, in ms. */
  maxToolMs: number;
  /** The share of a cancelled thread's runs that are cancelled. */
  cancelShare: number;
  /** The most user actions before the closing turn. */
  maxActions: number;
  /**
   * The shares of stopped runs drained (RunControl) and cancelled with a stream that never closes (in process), and
   * whose worker process is drained on SIGTERM rather than killed (in the kill phase).
   */
  drainShare: number;
  neverClosesShare: number;
  sigtermShare: number;
}

/** Turn lengths seen so far, by graph, client and shape: where a cancellation may land. */
export class Estimates {
  private readonly ms = new Map<string, number>();
  get(key: string): number {
    return this.ms.get(key) ?? 400;
  }
  update(key: string, ms: number): void {
    const old = this.ms.get(key);
    this.ms.set(key, old === undefined ? ms : 0.8 * old + 0.2 * ms);
  }
}

export interface ThreadSetup {
  id: string;
  random: Random;
  phase: string;
  client: Client;
  kind: GraphKind;
  /** Never cancelled, and read through the sanitizer and raw after every turn. */
  control: boolean;
  graph: ChaosGraph;
  /** The same graph compiled with the bare saver, for raw reads. */
  raw: ChaosGraph;
  /** The bare saver, for raw reads and to wait for a cancelled run to settle. */
  saver: BaseCheckpointSaver;
  /** What runs the thread's actions: this process, or a worker process that may be killed. */
  runner: Runner;
  options: ThreadOptions;
  metrics: Metrics;
  estimates: Estimates;
}

/** What a user does: a new message, a resume at `interrupt()`, or `invoke(null)` after a run that stopped. */
export type Action = { type: "message"; text: string } | { type: "resume" } | { type: "continue" };

/** How a run is stopped: cancelled (its signal aborted), or one of the faults beyond a cancellation. */
export type Stop = "cancel" | Fault;

/** One run of a thread: its action, and the stop that strikes it after `afterMs` if it still runs then. */
export interface RunPlan {
  action: Action;
  durability: "sync" | "async";
  /** How many calls the model makes in this run (where a stop lands: one tool or several). */
  calls: number;
  stop?: { kind: Stop; afterMs: number };
}

export type Outcome =
  | { status: "completed"; ms: number }
  | { status: "stopped"; stop: Stop; landing: Landing }
  | { status: "failed"; error: unknown };

/** Runs a thread's actions: in this process (cancel, drain, never-closing stream) or in a worker process (kill). */
export interface Runner {
  /** The stops this runner makes. */
  readonly stops: readonly Stop[];
  run(setup: ThreadSetup, plan: RunPlan): Promise<Outcome>;
  /** Between two runs of a control thread: restarts its process (a deploy), where it has one. */
  restart?(): Promise<void>;
}

/** The input a compiled graph takes for `action`. */
function inputOf(action: Action): unknown {
  if (action.type === "message") return { messages: [new HumanMessage(action.text)] };
  return action.type === "resume" ? new Command({ resume: "yes" }) : null;
}

/** How one run is made: its thread, action and durability, where its progress is reported, and what stops it. */
export interface RunSettings {
  thread: string;
  action: Action;
  durability: "sync" | "async";
  progress: RunProgress;
  control: RunControl;
  signal?: AbortSignal;
}

/** Streams one run through `graph` to its end, token by token as a chat UI does (in process and in a worker). */
export async function streamRun(
  graph: ChaosGraph,
  { thread, action, durability, progress, control, signal }: RunSettings,
): Promise<void> {
  const options = {
    configurable: { thread_id: thread },
    signal,
    control,
    streamMode: "messages" as const,
    durability,
    callbacks: [progress],
  };
  for await (const _chunk of await graph.run.stream(inputOf(action), options));
}

/** The calls of a turn. Gemini threads make one call at most (see docs/providers.md: parallel results). */
export function callsFor(random: Random, client: Client): ToolName[] {
  if (client === "gemini")
    return random.weighted<ToolName[]>([
      [[], 2],
      [["search"], 3],
      [["lookup"], 3],
      [["confirm"], 2],
    ]);
  return random.weighted<ToolName[]>([
    [[], 2],
    [["search"], 2],
    [["search", "lookup"], 3],
    [["search", "lookup", "search"], 2],
    [["confirm"], 1],
    [["search", "confirm"], 1],
    [["lookup", "confirm", "search"], 1],
  ]);
}

const textOf = (value: unknown) => JSON.stringify(value);

/** Runs one thread to its end, recording what it finds in `setup.metrics`. */
export async function runThread(setup: ThreadSetup): Promise<void> {
  const { id, random, client, kind, control, saver, runner, options, metrics, estimates } = setup;
  const config = { configurable: { thread_id: id } };
  metrics.threads.add(setup.phase);
  if (control) metrics.controlThreads++;
  /** Every real result a turn started from, by call id, with the action that started from it. */
  const real = new Map<string, RealResult & { action: number }>();
  /** What each action was and how it ended, for the report of a loss. */
  const log: string[] = [];
  let cancelledAny = false;
  try {
    const actions = random.int(1, options.maxActions);
    let paused = false;
    let stopped: Stop | undefined; // how the last action stopped: a turn must still answer
    let abandoned = false;
    for (let i = 0; i < actions || paused || stopped !== undefined || abandoned; i++) {
      const turn = random.fork(`action ${i}`);
      const closing = i >= actions;
      const durability = turn.pick(["sync", "async"] as const);
      const directive: TurnDirective = { calls: callsFor(turn, client), words: turn.int(3, 14) };
      const abandon = paused && !control && !closing && turn.chance(0.4);
      const stopAt = !control && !closing && turn.chance(options.cancelShare) ? turn.next() : undefined;
      const before = await saver.getTuple(config);
      // A run a drain or a kill stopped is carried on with invoke(null) as often as with a new message, once it
      // stored a checkpoint to carry on from (LangGraph refuses invoke(null) on a thread with none).
      const carryOn =
        (stopped === "drain" || stopped === "kill" || stopped === "sigterm") &&
        before !== undefined &&
        turn.chance(0.5);
      const action: Action = carryOn
        ? { type: "continue" }
        : paused && !abandon
          ? { type: "resume" }
          : { type: "message", text: userText(id, i, directive) };

      for (const [callId, found] of realResults(before)) {
        if (!real.has(callId)) real.set(callId, { ...found, action: i });
      }
      if (abandon) {
        metrics.cancelled({ backend: setup.phase, client, graph: kind, landing: "paused at interrupt()", durability });
        cancelledAny = true;
      }
      const shape = action.type !== "message" ? action.type : directive.calls.length > 0 ? "tools" : "text";
      const estimate = `${kind}/${client}/${shape}`;
      const stop =
        stopAt === undefined
          ? undefined
          : { kind: pickStop(turn, runner, options), afterMs: stopAt * estimates.get(estimate) };
      metrics.traces.add(id, `action ${i} starts`);
      const calls = action.type === "message" ? directive.calls.length : 0;
      const outcome = await runner.run(setup, { action, durability, calls, stop });
      metrics.turns++;
      if (outcome.status === "completed") estimates.update(estimate, outcome.ms);
      if (outcome.status === "stopped") {
        const dims = { backend: setup.phase, client, graph: kind, landing: outcome.landing, durability };
        if (outcome.stop === "cancel") metrics.cancelled(dims);
        else metrics.faulted(outcome.stop, setup.phase, outcome.landing);
        cancelledAny = true;
        // With "async", the stopped run's last checkpoint may land after the call returns, and a killed process's
        // last write may reach the store after it died: wait for it.
        if (durability === "async" || outcome.stop === "kill") await settled(saver, id);
        if (outcome.stop !== "cancel") await loadEveryCheckpoint(setup, `after ${outcome.stop} at action ${i}`);
      }
      if (outcome.status === "failed") {
        metrics.clientRefusals++;
        metrics.fail(
          "rejected",
          id,
          `${kind}/${client} action ${i}: ${String((outcome.error as Error)?.message ?? outcome.error)}; ` +
            `actions before: ${log.join("; ") || "none"}`,
        );
      }
      const after = await saver.getTuple(config);
      paused = outcome.status === "completed" && hasPendingInterrupt(after?.pendingWrites);
      // A failed run is counted, and not retried: the thread goes on with its plan.
      stopped = outcome.status === "stopped" ? outcome.stop : undefined;
      abandoned = abandon;
      const how =
        action.type === "resume"
          ? "resume"
          : action.type === "continue"
            ? "invoke(null)"
            : abandon
              ? "new message at interrupt()"
              : `new message calling ${directive.calls.join("+") || "nothing"}`;
      const ended = outcome.status === "stopped" ? `${outcome.stop} ${outcome.landing}` : outcome.status;
      metrics.traces.add(id, `action ${log.length}: ${how} (${durability}) ${ended}`);
      log.push(`${i}: ${how} (${durability}) ${ended}${paused ? ", paused" : ""}`);
      for (const callId of answeredTwice(storedMessages(after))) {
        metrics.fail("answeredTwice", id, `stored history answers ${callId} twice (${kind}/${client}, action ${i})`);
      }
      if (control) {
        if (runner.restart && turn.chance(0.3)) await runner.restart();
        await compareReads(setup, `after action ${i}`);
      }
    }
    const final = storedMessages(await saver.getTuple(config));
    for (const [callId, result] of real) {
      metrics.realResultsChecked++;
      const answer = answerOf(final, callId, result.content);
      if (answer === "call-missing")
        metrics.observed.add(
          "real result of a call the history never held (finished task's write discarded with new input)",
        );
      else if (answer !== "real") {
        const seen = `seen as a ${result.where} of checkpoint ${result.checkpointId} before action ${result.action}; actions: ${log.join("; ")}`;
        metrics.fail(
          "lost",
          id,
          `${kind}/${client}: call ${callId} answered by ${answer}; its real result "${result.content}" was ${seen}`,
        );
      }
    }
    if (cancelledAny) {
      metrics.cancelledThreads++;
      if (metrics.repairedThreads.has(id) || holdsRepair(final)) metrics.cancelledThreadsRepaired++;
    }
  } finally {
    metrics.repairedThreads.delete(id);
    await saver.deleteThread(id);
    releaseHungTools(id);
  }
}

/** How a faulted run is stopped: by the runner's first stop, or another of its stops by its share. */
function pickStop(random: Random, runner: Runner, options: ThreadOptions): Stop {
  const shares: Partial<Record<Stop, number>> = {
    drain: options.drainShare,
    neverCloses: options.neverClosesShare,
    sigterm: options.sigtermShare,
  };
  const [first, ...others] = runner.stops;
  const weighted = others.map((stop) => [stop, shares[stop] ?? 0] as const);
  const rest = weighted.reduce((sum, [, share]) => sum + share, 0);
  return random.weighted<Stop>([[first!, Math.max(0, 1 - rest)], ...weighted]);
}

/**
 * Loads every checkpoint of the thread raw, as the saver stores it (each namespace's, with its pending writes): a
 * fault must never leave one that a raw read cannot load.
 */
async function loadEveryCheckpoint({ id, saver, metrics }: ThreadSetup, when: string): Promise<void> {
  try {
    for await (const listed of saver.list({ configurable: { thread_id: id } })) {
      const tuple = await saver.getTuple(listed.config);
      if (tuple === undefined) throw new Error(`checkpoint ${listed.checkpoint.id} is listed; getTuple finds nothing`);
      metrics.checkpointsLoaded++;
    }
  } catch (error) {
    metrics.fail("unloadable", id, `${when}: ${String((error as Error)?.message ?? error)}`);
  }
}

/**
 * Runs in this process: streams the run through the thread's graph, and stops it after `afterMs` if it still runs
 * then: aborts its signal (a cancellation, or one whose tools never return, so its stream never closes), or asks
 * its RunControl to drain (it stops at the next step boundary with GraphDrained). A control thread's run is read,
 * while it works, through the sanitizer between two raw reads.
 */
export const IN_PROCESS: Runner = {
  stops: ["cancel", "drain", "neverCloses"],
  async run(setup, { action, durability, calls, stop }) {
    const controller = new AbortController();
    const control = new RunControl();
    const progress = new RunProgress(calls);
    const release = useTools(setup.id, {
      seed: setup.random.seed,
      maxToolMs: setup.options.maxToolMs,
      toolStarted: () => progress.toolStarted(),
      toolEnded: () => progress.toolEnded(),
      ignoresAbort: () => stop?.kind === "neverCloses",
    });
    let landing: Landing | undefined;
    const timer =
      stop === undefined
        ? undefined
        : setTimeout(() => {
            landing = progress.where();
            if (stop.kind === "drain") control.requestDrain("sigterm");
            else controller.abort();
          }, stop.afterMs);
    const start = performance.now();
    let running = true;
    const watching = setup.control ? watchRun(setup, () => running) : Promise.resolve();
    try {
      await streamRun(setup.graph, {
        thread: setup.id,
        action,
        durability,
        progress,
        control,
        signal: controller.signal,
      });
      return { status: "completed", ms: performance.now() - start };
    } catch (error) {
      if (error instanceof GraphDrained && landing !== undefined) return { status: "stopped", stop: "drain", landing };
      if (!controller.signal.aborted || landing === undefined) return { status: "failed", error };
      // Only a run cancelled while its tools work is left with a stream that never closes.
      const inTool = landing === "during a tool" || landing === "during one of several parallel tools";
      return { status: "stopped", stop: stop?.kind === "neverCloses" && inTool ? "neverCloses" : "cancel", landing };
    } finally {
      clearTimeout(timer);
      running = false;
      release();
      await watching;
    }
  },
};

/** Reads a control thread through the sanitizer while its run works, between two raw reads that agree. */
export async function watchRun(setup: ThreadSetup, running: () => boolean): Promise<void> {
  const config = { configurable: { thread_id: setup.id } };
  while (running()) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const before = textOf(await setup.raw.state.getState(config));
    const sanitized = textOf(await setup.graph.state.getState(config));
    const after = textOf(await setup.raw.state.getState(config));
    if (before !== after) continue;
    setup.metrics.controlReads++;
    if (sanitized !== before) {
      setup.metrics.fail(
        "controlDiffs",
        setup.id,
        `getState while a run works differs from raw: ${diffAt(sanitized, before)}`,
      );
    }
  }
}

/** A control thread's `getState` (with subgraphs) and `getStateHistory`, through the sanitizer and raw. */
async function compareReads(setup: ThreadSetup, when: string): Promise<void> {
  const config = { configurable: { thread_id: setup.id } };
  const read = async (graph: ChaosGraph) => {
    const history = [];
    for await (const snapshot of graph.state.getStateHistory(config)) history.push(snapshot);
    return { state: textOf(await graph.state.getState(config, { subgraphs: true })), history: textOf(history) };
  };
  const [sanitized, raw] = [await read(setup.graph), await read(setup.raw)];
  setup.metrics.controlReads += 2;
  if (sanitized.state !== raw.state) {
    setup.metrics.fail(
      "controlDiffs",
      setup.id,
      `getState ${when} differs from raw: ${diffAt(sanitized.state, raw.state)}`,
    );
  }
  if (sanitized.history !== raw.history) {
    setup.metrics.fail(
      "controlDiffs",
      setup.id,
      `getStateHistory ${when} differs from raw: ${diffAt(sanitized.history, raw.history)}`,
    );
  }
}

/** Where two serialized reads first differ, with some context. */
function diffAt(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: sanitized …${a.slice(Math.max(0, i - 80), i + 120)}… raw …${b.slice(Math.max(0, i - 80), i + 120)}…`;
}
