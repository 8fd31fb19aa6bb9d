/** Drives a test/processes/thread-process.ts child: one app process of a deployment, on a shared store. */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { StoreEnv } from "../support/savers/stores.js";
import type { Command_ } from "./thread-process.js";

const SCRIPT = fileURLToPath(new URL("./thread-process.ts", import.meta.url));

/** An answer the process gave: its result, or the error the command threw there. */
export type Answer = { ok: true; result: unknown } | { ok: false; error: string };

export class AppProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, (answer: Answer) => void>();
  private next = 0;
  readonly ready: Promise<void>;

  constructor(store: StoreEnv, mode: "raw" | "sanitized") {
    this.child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
      env: { ...process.env, ...store, MODE: mode },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let started!: () => void;
    this.ready = new Promise((resolve) => (started = resolve));
    createInterface({ input: this.child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as { ready?: true; id?: number } & Answer;
      if (message.ready) return started();
      this.pending.get(message.id!)?.(message);
      this.pending.delete(message.id!);
    });
  }

  static async start(store: StoreEnv, mode: "raw" | "sanitized"): Promise<AppProcess> {
    const app = new AppProcess(store, mode);
    await app.ready;
    return app;
  }

  /** Sends `command` and waits for its answer. */
  send(command: Command_): Promise<Answer> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin!.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  }

  /** Sends `command`; its result, or a throw with the process's error. */
  async call(command: Command_): Promise<unknown> {
    const answer = await this.send(command);
    if (!answer.ok) throw new Error(answer.error);
    return answer.result;
  }

  /** Ends the process with `signal` (SIGKILL: a crash, an OOM kill; SIGTERM: a deploy) and waits for it. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill(signal);
    await exited;
  }
}
