/**
 * The kill phase: threads run in worker processes on a shared store (a SQLite file, Postgres through the official
 * saver or FastPostgresSaver, Redis), each process with the sanitizer, as a deployment's replicas run. A faulted run's
 * process is killed at a random instant (SIGKILL), or drained on SIGTERM as a deploy does; the thread's next action
 * runs in another process: a new message, or `invoke(null)` to carry the run on. The soak reads every thread from
 * its own process too (control threads must read as raw there, while their runs work in a worker).
 */
import { closeStore, createStore, openStore } from "../../support/savers/stores.js";
import { TimedSaver, type Backend, type OpenBackend, type SaverTrace } from "./backends.js";
import type { SoakOptions } from "./options.js";
import { watchRun, type Outcome, type Runner, type RunPlan, type ThreadSetup } from "./thread.js";
import type { Landing } from "./progress.js";
import { WorkerSlot } from "./workers.js";

/** The backends a process can share with another (not MemorySaver). */
export const KILL_BACKENDS = ["sqlite", "postgres", "fast-postgres", "redis"] as const satisfies readonly Backend[];
export type KillBackend = (typeof KILL_BACKENDS)[number];

/** The backends of the kill phase among those `options` asks for. */
export const killBackends = (options: Pick<SoakOptions, "backends">): KillBackend[] =>
  KILL_BACKENDS.filter((b) => options.backends.includes(b));

/** A new shared store of `backend`, the soak's own saver on it, and a slot of worker processes per thread in flight. */
export async function openSharedBackend(
  backend: KillBackend,
  slots: number,
  emulatorUrl: string,
  record: (ms: number) => void,
  trace?: SaverTrace,
): Promise<OpenBackend & { runners: Runner[] }> {
  const store = await createStore(backend);
  const saver = openStore(store.env);
  const workers = Array.from({ length: slots }, () => new WorkerSlot({ ...store.env, EMULATOR_URL: emulatorUrl }));
  return {
    backend,
    saver,
    timed: new TimedSaver(saver, record, trace),
    runners: workers.map(processRunner),
    close: async () => {
      await Promise.all(workers.map((slot) => slot.close()));
      await closeStore(saver);
      await store.remove();
    },
  };
}

/** Runs each action in the slot's worker process, and stops the process at the planned instant. */
function processRunner(slot: WorkerSlot): Runner {
  return {
    stops: ["kill", "sigterm"],
    async run(setup: ThreadSetup, { action, durability, calls, stop }: RunPlan): Promise<Outcome> {
      const worker = await slot.worker();
      const { id, ended } = worker.run({
        thread: setup.id,
        client: setup.client,
        kind: setup.kind,
        action,
        durability,
        calls,
        seed: setup.random.seed,
        maxToolMs: setup.options.maxToolMs,
      });
      let landing: Landing | undefined;
      const timer =
        stop === undefined
          ? undefined
          : setTimeout(() => {
              landing = worker.whereIs(id);
              void slot.replace(stop.kind === "kill" ? "SIGKILL" : "SIGTERM");
            }, stop.afterMs);
      const start = performance.now();
      let running = true;
      const watching = setup.control ? watchRun(setup, () => running) : Promise.resolve();
      try {
        const end = await ended;
        if (end.status === "completed") return { status: "completed", ms: performance.now() - start };
        if (landing !== undefined && end.status === "drained") return { status: "stopped", stop: "sigterm", landing };
        if (landing !== undefined && end.status === "exited") return { status: "stopped", stop: "kill", landing };
        return { status: "failed", error: end.status === "failed" ? end.error : `the worker process ${end.status}` };
      } finally {
        clearTimeout(timer);
        running = false;
        await watching;
      }
    },
    restart: () => slot.replace("SIGTERM"),
  };
}
