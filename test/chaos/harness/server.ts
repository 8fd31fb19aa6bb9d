/**
 * The Agent Server part of the soak: the real server (`startServer` of `@langchain/langgraph-api`, what
 * `langgraph dev` runs) loading server-graphs.ts, driven only through the SDK client, as apps drive it. Each
 * thread goes through a few episodes; in each, a first run is stopped at a random instant in one of the ways a
 * deployment stops runs, and the next message must be answered:
 * - `runs.cancel` (action "interrupt", waiting for it), then the next message;
 * - double-texting: the next message sent with `multitaskStrategy` "interrupt", "rollback" or "enqueue";
 * - a dropped stream (`onDisconnect: "cancel"`), then the next message;
 * - a run that keeps writing after its cancel (the hosted server's langgraphjs#2755), and the next message sent at
 *   once: LangGraph's own race, reported apart and never counted as the sanitizer's.
 * The server uses its own in-memory saver (`startServer` takes no other); server-graphs.ts hands it to the soak
 * for raw reads.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { Client as SdkClient } from "@langchain/langgraph-sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";
import { AGENT_SERVER_GLOBALS, saveGlobals, setEnv } from "../../support/restore.js";
import type { ProviderEmulator } from "../../support/provider-emulator/index.js";
import { collect, errorsOf, human, type StreamPart } from "../../support/servers/sdk.js";
import { settled } from "../../support/savers/settled.js";
import { sleep } from "../../support/graphs/strict-chat-model.js";
import { answeredTwice, answerOf, realResults, storedMessages } from "./checks.js";
import type { Metrics } from "./metrics.js";
import { userText } from "./model.js";
import type { SoakOptions } from "./options.js";
import { Random } from "./random.js";
import { SERVER_SIDE_KEY, serverSide } from "./server-graphs.js";
import { soakThreads, type SoakState } from "./soak.js";
import { Estimates, callsFor } from "./thread.js";
import { useTools } from "./tools.js";

const GRAPHS_FILE = fileURLToPath(new URL("./server-graphs.ts", import.meta.url));
const ASSISTANTS = ["syncDurability", "asyncDurability", "ignoresCancel"] as const;
type Assistant = (typeof ASSISTANTS)[number];

export const SERVER_FLOWS = [
  "runs.cancel",
  "double-texting: interrupt",
  "double-texting: rollback",
  "double-texting: enqueue",
  "dropped stream",
  "a cancelled run that keeps writing",
] as const;
type Flow = (typeof SERVER_FLOWS)[number];

const PHASE = "Agent Server";

/** What one episode's first run became, and the next message's stream. */
interface Episode {
  /** The first run's status once stopped (or "deleted": rollback removes it). */
  status: string;
  /** How long it ran, when it ran to its end. */
  ms?: number;
  next: StreamPart[];
}

/** The statuses of a run stopped before its end: 1.5 records a cancel as "interrupted", 2.0 (and rollback) "error". */
const STOPPED = new Set(["interrupted", "error", "deleted"]);

/** One thread on the server: its SDK client, ids, and what its runs send. */
interface ServerThread {
  sdk: SdkClient;
  thread: string;
  assistant: Assistant;
  config: { configurable: { client: string } };
}

/** The run's status, and how long it took when it ran to its end. */
const statusOf = async ({ sdk, thread }: ServerThread, run: string): Promise<Pick<Episode, "status" | "ms">> => {
  try {
    const { status, created_at, updated_at } = await sdk.runs.get(thread, run);
    return { status, ms: status === "success" ? Date.parse(updated_at) - Date.parse(created_at) : undefined };
  } catch {
    return { status: "deleted" };
  }
};

const nextMessage = ({ sdk, thread, assistant, config }: ServerThread, input: unknown, strategy?: string) =>
  collect(
    sdk.runs.stream(thread, assistant, {
      input: input as Record<string, unknown>,
      config,
      streamMode: ["values"],
      ...(strategy ? { multitaskStrategy: strategy as "interrupt" } : {}),
    }),
  );

/** Runs `first` and stops it `afterMs` later as `flow` says; then sends `next`. */
async function episode(t: ServerThread, flow: Flow, first: unknown, next: unknown, afterMs: number): Promise<Episode> {
  const { sdk, thread, assistant, config } = t;
  const input = first as Record<string, unknown>;
  if (flow === "dropped stream") {
    const stop = new AbortController();
    let run = "";
    const parts = sdk.runs.stream(thread, assistant, {
      input,
      config,
      streamMode: ["values"],
      signal: stop.signal,
      onDisconnect: "cancel",
    });
    const reading = (async () => {
      for await (const part of parts) if (part.event === "metadata") run = (part.data as { run_id: string }).run_id;
    })().catch(() => {});
    await sleep(afterMs);
    stop.abort();
    await reading;
    // Dropped before its metadata arrived, the run may still have been created: wait for every run of the thread.
    const runs = run ? [run] : (await sdk.runs.list(thread)).map((r) => r.run_id);
    for (const id of runs) await sdk.runs.join(thread, id);
    return { ...(runs[0] ? await statusOf(t, runs[0]) : { status: "not started" }), next: [] };
  }
  const run = (await sdk.runs.create(thread, assistant, { input, config })).run_id;
  await sleep(afterMs);
  if (flow.startsWith("double-texting")) {
    const strategy = flow.slice("double-texting: ".length);
    const parts = await nextMessage(t, next, strategy);
    if (strategy === "enqueue") await sdk.runs.join(thread, run);
    return { ...(await statusOf(t, run)), next: parts };
  }
  await sdk.runs.cancel(thread, run, true, "interrupt");
  // A run that keeps writing gets the next message at once; after runs.cancel, checkNextTurn sends it.
  return { ...(await statusOf(t, run)), next: flow === "runs.cancel" ? [] : await nextMessage(t, next) };
}

export async function soakServer(
  options: SoakOptions,
  emulator: ProviderEmulator,
  metrics: Metrics,
  state: SoakState,
): Promise<void> {
  // LOG_LEVEL is read when the server's logger is first imported; no such level logs nothing (cancelled runs log
  // errors). server-graphs.ts reads CHAOS_EMULATOR_URL each time it builds a run's graph. Both are put back when the
  // phase ends, the server stopped, with the globals the server and server-graphs.ts set: the soak test's worker runs
  // other files next, whose child processes inherit its environment.
  const restoreGlobals = saveGlobals([...AGENT_SERVER_GLOBALS, SERVER_SIDE_KEY]);
  const restoreEnv = setEnv({ LOG_LEVEL: process.env.LOG_LEVEL ?? "off", CHAOS_EMULATOR_URL: emulator.url });
  try {
    await soakOnServer(options, emulator, metrics, state);
  } finally {
    restoreEnv();
    restoreGlobals();
  }
}

async function soakOnServer(
  options: SoakOptions,
  emulator: ProviderEmulator,
  metrics: Metrics,
  state: SoakState,
): Promise<void> {
  state.phase = PHASE;
  // The server imports the graph module with a plain import(): tsx lets it load TypeScript, as `langgraph dev` does.
  const unregister = register();
  const { startServer } = await import("@langchain/langgraph-api/server");
  const cwd = mkdtempSync(join(tmpdir(), "sanitizer-chaos-server-"));
  const graphs = Object.fromEntries(ASSISTANTS.map((id) => [id, `${GRAPHS_FILE}:${id}`]));
  const nWorkers = 2 * options.serverThreads + 2;
  const server = await startServer({ port: 0, host: "127.0.0.1", nWorkers, cwd, graphs });
  const sdk = new SdkClient({ apiUrl: `http://${server.host}` });
  const root = new Random(options.seed);
  const estimates = new Estimates();
  const soakThread = async (index: number) => {
    const random = root.fork(`server/${index}`);
    const client = random.pick(options.clients);
    const id = `server-${index}`;
    const { thread_id: thread } = await sdk.threads.create();
    const release = useTools(thread, {
      seed: random.seed,
      maxToolMs: options.maxToolMs,
      toolStarted() {},
      toolEnded() {},
    });
    metrics.threads.add(PHASE);
    try {
      const episodes = random.int(1, 3);
      for (let e = 0; e < episodes; e++) {
        const turn = random.fork(`episode ${e}`);
        const flow = turn.pick(SERVER_FLOWS);
        const racing = flow === "a cancelled run that keeps writing";
        const assistant: Assistant = racing
          ? "ignoresCancel"
          : turn.pick(["syncDurability", "asyncDurability"] as const);
        const first = { calls: callsFor(turn, client), words: turn.int(3, 14) };
        const nextText = userText(id, 2 * e + 1, { calls: callsFor(turn, client), words: turn.int(3, 14) });
        const next = human(nextText);
        const t: ServerThread = { sdk, thread, assistant, config: { configurable: { client } } };
        const estimate = `${assistant}/${first.calls.length > 0}`;
        if (racing) metrics.raceThreads.add(id);
        const result = await episode(
          t,
          flow,
          human(userText(id, 2 * e, first)),
          next,
          turn.next() * estimates.get(estimate),
        );
        metrics.turns += 2;
        if (result.ms !== undefined) estimates.update(estimate, result.ms);
        metrics.observed.add(`${flow}: the first run ended "${result.status}"`);
        if (STOPPED.has(result.status) && flow !== "double-texting: enqueue") {
          const durability = assistant === "syncDurability" ? "sync" : "async";
          metrics.cancelled({
            backend: PHASE,
            client,
            graph: "ToolNode",
            landing: `Agent Server: ${flow}`,
            durability,
          });
        }
        const errors = errorsOf(result.next);
        if (flow === "runs.cancel" || flow === "dropped stream") {
          await checkNextTurn(t, id, metrics, flow, next);
        } else if (racing) {
          await recordRace(t, id, metrics, result, nextText);
        } else if (errors.length > 0 && assistant === "syncDurability") {
          metrics.fail("rejected", id, `${flow} (${assistant}, ${client}): ${JSON.stringify(errors[0]!.data)}`);
        } else if (errors.length > 0) {
          // With "async", the new run may start before the cancelled one's last checkpoint is stored: LangGraph's race.
          metrics.observed.add(`${flow} with "async" durability: the next message failed (LangGraph's race)`);
          metrics.example("race: next message failed", id, JSON.stringify(errors[0]!.data));
        }
      }
    } finally {
      release();
      await sdk.threads.delete(thread);
    }
  };
  try {
    const { serverThreads: workers, only, serverCancellations: target } = options;
    const more = () => metrics.cancellations.backend.get(PHASE) < target;
    await soakThreads({ workers, only, more }, emulator, metrics, soakThread);
  } finally {
    await server.cleanup();
    await unregister();
    rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * After `runs.cancel` or a dropped stream: waits for an "async" run's last checkpoint, reads the real results the
 * thread holds, sends the next message, and checks it was answered with each of them as stored.
 */
async function checkNextTurn(t: ServerThread, id: string, metrics: Metrics, flow: Flow, next: unknown) {
  const saver = serverSide().saver;
  const config = { configurable: { thread_id: t.thread } };
  if (saver && t.assistant === "asyncDurability") await settled(saver, t.thread);
  const real = saver ? realResults(await saver.getTuple(config)) : new Map();
  const parts = await nextMessage(t, next);
  if (errorsOf(parts).length > 0) {
    metrics.fail("rejected", id, `${flow} (${t.assistant}): ${JSON.stringify(errorsOf(parts)[0]!.data)}`);
    return;
  }
  if (!saver) return;
  const final = storedMessages(await saver.getTuple(config));
  for (const [callId, result] of real) {
    metrics.realResultsChecked++;
    const answer = answerOf(final, callId, result.content);
    if (answer === "call-missing") metrics.observed.add("real result of a call the history never held");
    else if (answer !== "real") metrics.fail("lost", id, `${flow} (${t.assistant}): ${callId} answered by ${answer}`);
  }
  for (const callId of answeredTwice(final))
    metrics.fail("answeredTwice", id, `stored history answers ${callId} twice`);
}

/** What a run that kept writing after its cancel did to the next message, once it has ended too. */
async function recordRace(t: ServerThread, id: string, metrics: Metrics, result: Episode, nextText: string) {
  const { ignoring } = serverSide();
  const going = ignoring.get(t.thread) ?? [];
  ignoring.delete(t.thread);
  metrics.observed.add(
    `a cancelled run that keeps writing: ${going.length > 0 ? "still writing" : "had ended"} when the next run started`,
  );
  await Promise.all(going);
  const errors = errorsOf(result.next);
  metrics.observed.add(
    `a cancelled run that keeps writing: the next message ${errors.length > 0 ? "failed" : "was answered"}`,
  );
  if (errors.length > 0) metrics.example("race: next message failed", id, JSON.stringify(errors[0]!.data));
  const saver = serverSide().saver;
  if (!saver) return;
  const final = storedMessages(await saver.getTuple({ configurable: { thread_id: t.thread } })) as BaseMessage[];
  const asked = final.findIndex((m) => m.type === "human" && m.text === nextText);
  const kept = asked >= 0 && final.slice(asked + 1).some((m) => m.type === "ai");
  metrics.observed.add(
    `a cancelled run that keeps writing: the thread's latest checkpoint ${kept ? "holds" : "lost"} the next turn`,
  );
  if (answeredTwice(final).length > 0)
    metrics.observed.add("a cancelled run that keeps writing: a call answered twice in the stored history");
}
