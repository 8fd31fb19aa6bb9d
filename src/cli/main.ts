#!/usr/bin/env node
// Exit codes: 0 nothing left to do, 1 work left (broken threads, or checkpoints a dry run would prune), 2 usage or
// store error, 128 + the signal's number when a signal stopped the run.
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { openStore, reportError, USAGE, type CliIO } from "./command-line.js";
import { doctorCommand } from "./doctor-command.js";
import { pruneCommand } from "./prune-command.js";
import { DoctorUsageError, type OpenStore } from "./store.js";

export type { CliIO };

const COMMANDS = { doctor: doctorCommand, prune: pruneCommand } as const;

/** Returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  let store: OpenStore | undefined;
  try {
    const [name, ...rest] = argv;
    if (argv.includes("--help") || argv.includes("-h")) {
      io.stdout(USAGE);
      return 0;
    }
    if (name === undefined || name.startsWith("-")) throw new DoctorUsageError("missing command: doctor or prune");
    if (!Object.hasOwn(COMMANDS, name)) throw new DoctorUsageError(`unknown command: ${name}`);
    const command = COMMANDS[name as keyof typeof COMMANDS];
    return await command(rest, io, async (kind, values, writable) => (store = await openStore(kind, values, writable)));
  } catch (error) {
    return reportError(error, io);
  } finally {
    await store?.close().catch(() => {});
  }
}

// Run as the bin (npm links it, hence realpath), not when imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  // Batches awaiting their store outlive young collections, so the old generation fills with garbage up to the limit
  // V8 sets after each full collection, up to 4× the live heap: at 1.5×, peak memory no longer grows with the store.
  setFlagsFromString("--heap-growing-percent=50");
  // The first SIGINT or SIGTERM stops after the batches in flight; a second one ends the process.
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    stop.abort(signal);
  };
  process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
  const code = await main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(text.startsWith("\r") ? text : `${text}\n`),
    isTTY: Boolean(process.stderr.isTTY),
    signal: stop.signal,
  });
  process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
  process.exitCode = code;
}
