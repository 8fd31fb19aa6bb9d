/**
 * The scenario of one thread: a few user actions (a new message, a resume at `interrupt()`, or a new message
 * instead of that resume), each run streamed token by token as a chat UI does and, on cancelled threads, many of
 * them cancelled at an instant drawn uniformly over the run's expected length. Then a closing turn that must be
 * answered. Along the way it records the real tool results each turn started from, and at the end checks that
 * the thread's history answers each of them with its real result; control threads, never cancelled, are read
 * through the sanitizer and raw after every turn (and while their runs work) and must read the same.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { hasPendingInterrupt } from "../src/index.js";
import type { Client } from "../test/support/provider-emulator/index.js";
import { settled } from "../test/support/settled.js";
import { answeredTwice, answerOf, holdsRepair, realResults, storedMessages, type RealResult } from "./checks.js";
import type { ChaosGraph, GraphKind } from "./graphs.js";
import type { Metrics } from "./metrics.js";
import { userText, type TurnDirective } from "./model.js";
import { RunProgress, type Landing } from "./progress.js";
import type { Random } from "./random.js";
import { useTools, type ToolName } from "./tools.js";

/** How threads behave (from the CLI's options). */
export interface ThreadOptions {
  /** The longest a tool works, in ms. */
  maxToolMs: number;
  /** The share of a cancelled thread's runs that are cancelled. */
  cancelShare: number;
  /** The most user actions before the closing turn. */
  maxActions: number;
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
  options: ThreadOptions;
  metrics: Metrics;
  estimates: Estimates;
}

type Outcome =
  | { status: "completed"; ms: number }
  | { status: "cancelled"; landing: Landing }
  | { status: "failed"; error: unknown };

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
  const { id, random, client, kind, control, saver, options, metrics, estimates } = setup;
  const config = { configurable: { thread_id: id } };
  let progress = new RunProgress(0);
  const release = useTools(id, {
    seed: random.seed,
    maxToolMs: options.maxToolMs,
    toolStarted: () => progress.toolStarted(),
    toolEnded: () => progress.toolEnded(),
  });
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
    let open = false; // the last action was cancelled or abandoned: a turn must still answer
    for (let i = 0; i < actions || paused || open; i++) {
      const turn = random.fork(`action ${i}`);
      const closing = i >= actions;
      const durability = turn.pick(["sync", "async"] as const);
      const directive: TurnDirective = { calls: callsFor(turn, client), words: turn.int(3, 14) };
      const abandon = paused && !control && !closing && turn.chance(0.4);
      const cancelAt = !control && !closing && turn.chance(options.cancelShare) ? turn.next() : undefined;
      const resume = paused && !abandon;

      for (const [callId, found] of realResults(await saver.getTuple(config))) {
        if (!real.has(callId)) real.set(callId, { ...found, action: i });
      }
      if (abandon) {
        metrics.cancelled({ backend: setup.phase, client, graph: kind, landing: "paused at interrupt()", durability });
        cancelledAny = true;
      }
      const input = resume
        ? new Command({ resume: "yes" })
        : { messages: [new HumanMessage(userText(id, i, directive))] };
      const shape = resume ? "resume" : directive.calls.length > 0 ? "tools" : "text";
      const estimate = `${kind}/${client}/${shape}`;
      progress = new RunProgress(resume ? 0 : directive.calls.length);
      metrics.traces.add(id, `action ${i} starts`);
      const outcome = await runOnce(setup, input, durability, progress, cancelAt && cancelAt * estimates.get(estimate));
      metrics.turns++;
      if (outcome.status === "completed") estimates.update(estimate, outcome.ms);
      if (outcome.status === "cancelled") {
        metrics.cancelled({ backend: setup.phase, client, graph: kind, landing: outcome.landing, durability });
        cancelledAny = true;
        // With "async", the cancelled run's last checkpoint may land after the call returns: wait for it.
        if (durability === "async") await settled(saver, id);
      }
      if (outcome.status === "failed") {
        metrics.clientRefusals++;
        metrics.fail(
          "rejected",
          id,
          `${kind}/${client} action ${i}: ${String((outcome.error as Error)?.message ?? outcome.error)}`,
        );
      }
      const after = await saver.getTuple(config);
      paused = outcome.status === "completed" && hasPendingInterrupt(after?.pendingWrites);
      open = outcome.status !== "completed" || abandon;
      const how = resume
        ? "resume"
        : abandon
          ? "new message at interrupt()"
          : `new message calling ${directive.calls.join("+") || "nothing"}`;
      metrics.traces.add(id, `action ${log.length}: ${how} (${durability}) ${outcome.status}`);
      log.push(
        `${i}: ${how} (${durability}) ${outcome.status}${outcome.status === "cancelled" ? ` ${outcome.landing}` : ""}${paused ? ", paused" : ""}`,
      );
      for (const callId of answeredTwice(storedMessages(after))) {
        metrics.fail("answeredTwice", id, `stored history answers ${callId} twice (${kind}/${client}, action ${i})`);
      }
      if (control) await compareReads(setup, `after action ${i}`);
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
    release();
    metrics.repairedThreads.delete(id);
    await saver.deleteThread(id);
  }
}

/**
 * Streams one run of `input`, cancelling it after `cancelAfterMs` if it still runs then. A control thread's
 * run is read, while it works, through the sanitizer between two raw reads.
 */
async function runOnce(
  setup: ThreadSetup,
  input: unknown,
  durability: "sync" | "async",
  progress: RunProgress,
  cancelAfterMs: number | undefined,
): Promise<Outcome> {
  const controller = new AbortController();
  let landing: Landing = "between nodes";
  const timer =
    cancelAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          landing = progress.where();
          controller.abort();
        }, cancelAfterMs);
  const start = performance.now();
  let running = true;
  const watching = setup.control ? watchRun(setup, () => running) : Promise.resolve();
  try {
    const options = {
      configurable: { thread_id: setup.id },
      signal: controller.signal,
      streamMode: "messages" as const,
      durability,
      callbacks: [progress],
    };
    for await (const _chunk of await setup.graph.run.stream(input, options));
    return { status: "completed", ms: performance.now() - start };
  } catch (error) {
    return controller.signal.aborted ? { status: "cancelled", landing } : { status: "failed", error };
  } finally {
    clearTimeout(timer);
    running = false;
    await watching;
  }
}

/** Reads a control thread through the sanitizer while its run works, between two raw reads that agree. */
async function watchRun(setup: ThreadSetup, running: () => boolean): Promise<void> {
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
