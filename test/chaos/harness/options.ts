/**
 * The soak's options: parsed from the command line, with defaults that make a full soak, and the commands that
 * replay a run or one of its threads.
 */
import { CLIENTS, type Client } from "../../support/provider-emulator/index.js";
import { BACKENDS, type Backend } from "./backends.js";
import { GRAPH_KINDS, type GraphKind } from "./graphs.js";
import type { ThreadOptions } from "./thread.js";

export interface SoakOptions extends ThreadOptions {
  seed: string;
  /** In-process cancellations to reach, spread evenly over the backends. */
  cancellations: number;
  /** Threads in flight at once on each backend, through one SanitizingCheckpointer and one saver. */
  threads: number;
  backends: Backend[];
  clients: Client[];
  graphs: GraphKind[];
  /** Run the in-process part / the kill phase (worker processes killed) / the Agent Server part / the outage phase. */
  inProcess: boolean;
  killPhase: boolean;
  server: boolean;
  outagePhase: boolean;
  /** Outages (a server restarted, a Cluster master killed) per backend of the outage phase, and its threads. */
  outages: number;
  outageThreads: number;
  /** Worker processes to kill (SIGKILL), spread evenly over the backends a process can share; threads in flight. */
  kills: number;
  killThreads: number;
  /** Cancellations to reach on the Agent Server, and its threads in flight. */
  serverCancellations: number;
  serverThreads: number;
  /** Replay only these thread numbers (of each backend, or of the server). */
  only: number[] | undefined;
  /** Milliseconds between two streamed frames of a reply. */
  frameDelayMs: number;
  /** The share of threads that are never cancelled and read through the sanitizer and raw. */
  controlShare: number;
  /** Milliseconds between two samples of the heap and the latency. */
  sampleEveryMs: number;
  /** Write docs/reliability.md's figures and docs/images/reliability.svg. */
  writeSummary: boolean;
  /** Print progress to stderr. */
  verbose: boolean;
  /** Keep each thread's saver calls and repairs, printed with its failures. */
  trace: boolean;
}

export const DEFAULTS: Omit<SoakOptions, "seed"> = {
  cancellations: 10_000,
  threads: 50,
  backends: [...BACKENDS],
  clients: [...CLIENTS],
  graphs: [...GRAPH_KINDS],
  inProcess: true,
  killPhase: true,
  server: true,
  outagePhase: true,
  outages: 10,
  outageThreads: 4,
  kills: 1000,
  killThreads: 4,
  serverCancellations: 400,
  serverThreads: 10,
  only: undefined,
  maxToolMs: 150,
  frameDelayMs: 3,
  cancelShare: 0.6,
  maxActions: 5,
  drainShare: 0.1,
  neverClosesShare: 0.2,
  sigtermShare: 0.2,
  controlShare: 0.1,
  sampleEveryMs: 5000,
  writeSummary: false,
  verbose: true,
  trace: false,
};

const USAGE = `npm run chaos -- [options]

  --seed S                   replay a seed (default: a new one, printed)
  --cancellations N          in-process cancellations, over all backends (default ${DEFAULTS.cancellations})
  --threads N                threads in flight per backend (default ${DEFAULTS.threads})
  --backends a,b             of ${BACKENDS.join(", ")} (default all)
  --clients a,b              of ${CLIENTS.join(", ")} (default all)
  --graphs a,b               of ${GRAPH_KINDS.join(", ")} (default all)
  --server-cancellations N   cancellations on the Agent Server (default ${DEFAULTS.serverCancellations})
  --server-threads N         threads in flight on the Agent Server (default ${DEFAULTS.serverThreads})
  --kills N                  worker processes killed, over the shared backends (default ${DEFAULTS.kills})
  --kill-threads N           threads in flight per backend in the kill phase (default ${DEFAULTS.killThreads})
  --outages N                servers restarted or failed over, per backend of the outage phase (default ${DEFAULTS.outages})
  --outage-threads N         threads in flight during each outage (default ${DEFAULTS.outageThreads})
  --only-server, --no-server the Agent Server part alone, or without it
  --only-kills, --no-kills   the kill phase alone, or without it
  --only-outages, --no-outages  the outage phase (Postgres and Redis restarted, a Cluster master killed) alone, or without it
  --only N,M                 replay only these thread numbers (printed with each failure)
  --write-summary            write docs/reliability.md's figures and docs/images/reliability.svg
  --trace                    print each failing thread's saver calls, repairs and actions
  --quiet                    no progress lines`;

function list<T extends string>(name: string, value: string, allowed: readonly T[]): T[] {
  const items = value.split(",").filter(Boolean);
  const unknown = items.filter((item) => !allowed.includes(item as T));
  if (unknown.length > 0) throw new Error(`--${name}: unknown ${unknown.join(", ")} (one of ${allowed.join(", ")})`);
  return items as T[];
}

function count(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} takes a whole number, got ${value}`);
  return n;
}

/** Parses `argv` (the arguments after the script). Throws with the usage on a bad option. */
export function parseOptions(argv: readonly string[]): SoakOptions {
  const options: SoakOptions = { ...DEFAULTS, seed: String(Date.now() % 1_000_000_007) };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case "--seed":
        options.seed = value();
        break;
      case "--cancellations":
        options.cancellations = count("cancellations", value());
        break;
      case "--threads":
        options.threads = Math.max(1, count("threads", value()));
        break;
      case "--backends":
        options.backends = list("backends", value(), BACKENDS);
        break;
      case "--clients":
        options.clients = list("clients", value(), CLIENTS);
        break;
      case "--graphs":
        options.graphs = list("graphs", value(), GRAPH_KINDS);
        break;
      case "--server-cancellations":
        options.serverCancellations = count("server-cancellations", value());
        break;
      case "--server-threads":
        options.serverThreads = Math.max(1, count("server-threads", value()));
        break;
      case "--kills":
        options.kills = count("kills", value());
        break;
      case "--kill-threads":
        options.killThreads = Math.max(1, count("kill-threads", value()));
        break;
      case "--outages":
        options.outages = count("outages", value());
        break;
      case "--outage-threads":
        options.outageThreads = Math.max(1, count("outage-threads", value()));
        break;
      case "--only-server":
        options.inProcess = false;
        options.killPhase = false;
        options.outagePhase = false;
        options.server = true;
        break;
      case "--no-server":
        options.server = false;
        break;
      case "--only-kills":
        options.inProcess = false;
        options.server = false;
        options.outagePhase = false;
        options.killPhase = true;
        break;
      case "--no-kills":
        options.killPhase = false;
        break;
      case "--only-outages":
        options.inProcess = false;
        options.server = false;
        options.killPhase = false;
        options.outagePhase = true;
        break;
      case "--no-outages":
        options.outagePhase = false;
        break;
      case "--only":
        options.only = value()
          .split(",")
          .map((n) => count("only", n));
        break;
      case "--write-summary":
        options.writeSummary = true;
        break;
      case "--trace":
        options.trace = true;
        break;
      case "--quiet":
        options.verbose = false;
        break;
      case "--help":
      case "-h":
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${flag}\n\n${USAGE}`);
    }
  }
  return options;
}

/** The command that replays `options` (with `only`, just those threads). */
export function replayCommand(options: SoakOptions, only?: readonly number[]): string {
  const args = [`--seed ${options.seed}`];
  const differs = <K extends keyof SoakOptions>(key: K) =>
    JSON.stringify(options[key]) !== JSON.stringify(DEFAULTS[key as keyof typeof DEFAULTS]);
  if (differs("cancellations")) args.push(`--cancellations ${options.cancellations}`);
  if (differs("threads")) args.push(`--threads ${options.threads}`);
  if (differs("backends")) args.push(`--backends ${options.backends.join(",")}`);
  if (differs("clients")) args.push(`--clients ${options.clients.join(",")}`);
  if (differs("graphs")) args.push(`--graphs ${options.graphs.join(",")}`);
  if (differs("serverCancellations")) args.push(`--server-cancellations ${options.serverCancellations}`);
  if (differs("serverThreads")) args.push(`--server-threads ${options.serverThreads}`);
  if (differs("kills")) args.push(`--kills ${options.kills}`);
  if (differs("killThreads")) args.push(`--kill-threads ${options.killThreads}`);
  if (differs("outages")) args.push(`--outages ${options.outages}`);
  if (differs("outageThreads")) args.push(`--outage-threads ${options.outageThreads}`);
  if (!options.inProcess && !options.killPhase && !options.server) args.push("--only-outages");
  else if (!options.inProcess && !options.killPhase && !options.outagePhase) args.push("--only-server");
  else if (!options.inProcess && !options.server && !options.outagePhase) args.push("--only-kills");
  else {
    if (!options.server) args.push("--no-server");
    if (!options.killPhase) args.push("--no-kills");
    if (!options.outagePhase) args.push("--no-outages");
  }
  const threads = only ?? options.only;
  if (threads && threads.length > 0) args.push(`--only ${threads.join(",")}`);
  return `npm run chaos -- ${args.join(" ")}`;
}

/** The command that replays the thread a failure names (`<backend>-<n>`, `<backend>-kill-<n>` or `server-<n>`). */
export function replayOf(options: SoakOptions, thread: string): string {
  const match = /^(.*)-(\d+)$/.exec(thread);
  if (!match) return replayCommand(options);
  const [, where, n] = match;
  const index = Number(n);
  if (where === "server")
    return replayCommand({ ...options, inProcess: false, killPhase: false, outagePhase: false, server: true }, [index]);
  if (where === "outage")
    return replayCommand({ ...options, inProcess: false, killPhase: false, server: false, outagePhase: true });
  const kill = where!.endsWith("-kill");
  const backend = (kill ? where!.slice(0, -"-kill".length) : where) as Backend;
  if (!BACKENDS.includes(backend)) return replayCommand(options);
  return replayCommand(
    { ...options, backends: [backend], server: false, outagePhase: false, inProcess: !kill, killPhase: kill },
    [index],
  );
}
