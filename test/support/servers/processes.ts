/** Servers a test starts as users start them: a separate process, stopped with its whole process group. */
import { spawn, type ChildProcess } from "node:child_process";

export interface SpawnOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Matched against everything the process prints so far; the first match means it is ready. */
  ready: RegExp;
}

/**
 * Spawns `command` in its own process group (so that stopping it stops its children, such as npm's or a CLI's
 * server) and records it in `started`. Resolves with the match of `ready`; rejects if it exits first.
 */
export function spawnUntilReady(
  command: string,
  args: string[],
  { env, cwd, ready }: SpawnOptions,
  started: ChildProcess[],
): Promise<RegExpExecArray> {
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve(match);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`${command} ${args.join(" ")} exited with ${code} before ready:\n${output}`)),
    );
  });
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
