/** Servers a test starts as users start them: a separate process, stopped with its whole process group. */
import { spawn, type ChildProcess } from "node:child_process";

export interface SpawnOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Matched against everything the process prints so far; the first match means it is ready. */
  ready: RegExp;
  /** How long to wait for `ready` before failing with what the process printed (under the hook's own timeout). */
  timeoutMs?: number;
}

/**
 * Spawns `command` in its own process group (so that stopping it stops its children, such as npm's or a CLI's
 * server) and records it in `started`. Resolves with the match of `ready`; rejects with what the process printed if
 * it exits first or prints no match within `timeoutMs`, so that a start that hangs in CI shows where it stopped.
 */
export function spawnUntilReady(
  command: string,
  args: string[],
  { env, cwd, ready, timeoutMs = 50_000 }: SpawnOptions,
  started: ChildProcess[],
): Promise<RegExpExecArray> {
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  const commandLine = `${command} ${args.join(" ")}`;
  let output = "";
  let timer: NodeJS.Timeout | undefined;
  return new Promise<RegExpExecArray>((resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${commandLine} printed no ${ready} within ${timeoutMs} ms; it printed:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve(match);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${commandLine} exited with ${code} before ready:\n${output}`)));
  }).finally(() => clearTimeout(timer));
}

/** Stops each process of `started` that still runs (SIGTERM to its group), and waits for it to exit. */
export async function stopAll(started: ChildProcess[]): Promise<void> {
  for (const child of started.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
}
