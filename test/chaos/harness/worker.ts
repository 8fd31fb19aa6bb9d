/**
 * A worker process of the soak's kill phase: an app process on a shared store (test/support/savers/stores.ts names it by
 * its environment), every graph of the soak through one SanitizingCheckpointer and one `sanitizeGraph`, as each
 * replica of a deployment has. It runs one thread's action a line on stdin, reports where each run is as it goes
 * (so the soak knows where its kill landed), and answers when the run ends. On SIGTERM it drains its runs
 * (RunControl, as a server shutting down gracefully would) and exits once they stopped.
 *
 * Env: the store's, and EMULATOR_URL (the provider emulator the soak started).
 */
import { GraphDrained, RunControl } from "@langchain/langgraph";
import { createInterface } from "node:readline";
import { sanitizeGraph, SanitizingCheckpointer } from "../../../src/index.js";
import { chatModel, type Client } from "../../support/provider-emulator/index.js";
import { openStore, type StoreEnv } from "../../support/savers/stores.js";
import { asChaosGraph, buildGraph, type ChaosGraph, type GraphKind } from "./graphs.js";
import { RunProgress, type Landing } from "./progress.js";
import { streamRun, type Action } from "./thread.js";
import { useTools } from "./tools.js";

/** One action of a thread, as the soak sends it. */
export interface WorkerCommand {
  id: number;
  thread: string;
  client: Client;
  kind: GraphKind;
  action: Action;
  durability: "sync" | "async";
  calls: number;
  /** The thread's seed and the longest a tool works: its tools work as in process. */
  seed: string;
  maxToolMs: number;
}

/** What the worker writes, a JSON line each: ready once, then where each run is, then how it ended. */
export type WorkerLine =
  | { ready: true }
  | { id: number; where: Landing }
  | { id: number; status: "completed" | "drained" }
  | { id: number; status: "failed"; error: string };

const write = (line: WorkerLine) => process.stdout.write(`${JSON.stringify(line)}\n`);

const saver = new SanitizingCheckpointer(openStore(process.env as unknown as StoreEnv));
const protect = sanitizeGraph((kind: GraphKind, client: Client) =>
  buildGraph(kind, chatModel(client, process.env.EMULATOR_URL!), saver),
);
const graphs = new Map<string, ChaosGraph>();
const graphOf = (kind: GraphKind, client: Client) => {
  const key = `${kind}/${client}`;
  if (!graphs.has(key)) graphs.set(key, asChaosGraph(protect(kind, client)));
  return graphs.get(key)!;
};

/** The runs in flight: what drains each on SIGTERM. */
const running = new Map<number, { control: RunControl; done: Promise<void> }>();

/** Starts the run `command` asks for; it answers on stdout when it ends. */
function run(command: WorkerCommand): void {
  const progress = new RunProgress(command.calls, (where) => write({ id: command.id, where }));
  const release = useTools(command.thread, {
    seed: command.seed,
    maxToolMs: command.maxToolMs,
    toolStarted: () => progress.toolStarted(),
    toolEnded: () => progress.toolEnded(),
  });
  const control = new RunControl();
  const { thread, action, durability } = command;
  const done = (async () => {
    try {
      await streamRun(graphOf(command.kind, command.client), { thread, action, durability, progress, control });
      write({ id: command.id, status: "completed" });
    } catch (error) {
      if (error instanceof GraphDrained) write({ id: command.id, status: "drained" });
      else write({ id: command.id, status: "failed", error: String((error as Error)?.message ?? error) });
    } finally {
      release();
      running.delete(command.id);
    }
  })();
  running.set(command.id, { control, done });
}

createInterface({ input: process.stdin }).on("line", (line) => run(JSON.parse(line) as WorkerCommand));
process.on("SIGTERM", () => {
  for (const { control } of running.values()) control.requestDrain("sigterm");
  void Promise.all([...running.values()].map(({ done }) => done)).then(() => process.exit(0));
});
write({ ready: true });
