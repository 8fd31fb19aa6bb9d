/**
 * The kill phase's app processes, seen from the soak: each slot (a thread in flight) runs its thread's actions in a
 * worker process (worker.ts) and kills it at the planned instant: SIGKILL (a crash, the OOM killer, a
 * serverless timeout) or SIGTERM (a deploy: the worker drains its run). The next action runs in another process:
 * each slot keeps a spare started, so a kill costs no wait for a process to load.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { StoreEnv } from "../../support/savers/stores.js";
import type { Landing } from "./progress.js";
import type { WorkerCommand, WorkerLine } from "./worker.js";

const SCRIPT = fileURLToPath(new URL("./worker.ts", import.meta.url));

type Ending = Extract<WorkerLine, { status: string }>;

/** One worker process: sends it a thread's action, knows where the action is, and ends it with a signal. */
export class WorkerProcess {
  private readonly child: ChildProcess;
  private readonly endings = new Map<number, (line: Ending | { status: "exited" }) => void>();
  /** Where each action in flight is, as the worker last reported. */
  private readonly where = new Map<number, Landing>();
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  private next = 0;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
      // The soak's own process has printed the AWS SDK's Node version warning once already.
      env: { ...process.env, ...env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let ready!: () => void;
    let failed!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => ((ready = resolve), (failed = reject)));
    this.ready.catch(() => {}); // a spare stopped before it was needed
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => {
        failed(new Error(`the worker process exited (${signal ?? code}) before it was ready`));
        for (const end of this.endings.values()) end({ status: "exited" });
        this.endings.clear();
        resolve();
      }),
    );
    createInterface({ input: this.child.stdout! }).on("line", (text) => {
      const line = JSON.parse(text) as WorkerLine;
      if ("ready" in line) return ready();
      if ("where" in line) return void this.where.set(line.id, line.where);
      this.endings.get(line.id)?.(line);
      this.endings.delete(line.id);
      this.where.delete(line.id);
    });
  }

  /** Runs `command` (without its id); its ending, or `exited` when the process died first. */
  run(command: Omit<WorkerCommand, "id">): { id: number; ended: Promise<Ending | { status: "exited" }> } {
    const id = this.next++;
    const ended = new Promise<Ending | { status: "exited" }>((resolve) => this.endings.set(id, resolve));
    this.child.stdin!.write(`${JSON.stringify({ ...command, id })}\n`);
    return { id, ended };
  }

  /** Where action `id` is now. */
  whereIs(id: number): Landing {
    return this.where.get(id) ?? "between nodes";
  }

  /** Sends `signal` to the process and waits for it to exit. */
  async stop(signal: "SIGKILL" | "SIGTERM"): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}

/** A slot's worker process, and a spare one loading, to take over when the first is stopped. */
export class WorkerSlot {
  private current: WorkerProcess;
  private spare: WorkerProcess;

  constructor(private readonly env: StoreEnv & { EMULATOR_URL: string }) {
    this.current = new WorkerProcess({ ...env });
    this.spare = new WorkerProcess({ ...env });
  }

  /** The process that runs the slot's next action, once loaded. */
  async worker(): Promise<WorkerProcess> {
    await this.current.ready;
    return this.current;
  }

  /** Stops the current process with `signal`; the spare takes over, and a new spare starts loading. */
  async replace(signal: "SIGKILL" | "SIGTERM"): Promise<void> {
    const stopped = this.current;
    this.current = this.spare;
    this.spare = new WorkerProcess({ ...this.env });
    await stopped.stop(signal);
  }

  async close(): Promise<void> {
    await Promise.all([this.current.stop("SIGKILL"), this.spare.stop("SIGKILL")]);
  }
}
