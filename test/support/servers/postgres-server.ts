/**
 * A Postgres cluster of a test's own, so it can restart or stop the server, and PgBouncer in front of a server, each
 * on a free loopback port and removed afterwards. Debian's binaries: `initdb` refuses to run as root, so as root
 * both run as the `postgres` user, in a folder that user owns.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./redis-servers.js";

const POSTGRES_BIN =
  process.env.POSTGRES_BIN ??
  (existsSync("/usr/lib/postgresql")
    ? readdirSync("/usr/lib/postgresql")
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
        .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }))[0]
    : undefined);

/** Debian installs PgBouncer in /usr/sbin, which a user's PATH often lacks. */
const PGBOUNCER = existsSync("/usr/sbin/pgbouncer") ? "/usr/sbin/pgbouncer" : "pgbouncer";

const asRoot = process.getuid?.() === 0;

/** The command line that runs `binary` as the user owning the servers: `postgres` when we are root. */
function asServerUser(binary: string, args: string[]): [string, string[]] {
  return asRoot ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
}

/** A temporary folder the servers' user owns. */
function serverFolder(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), name));
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
    chownSync(dir, id("-u"), id("-g"));
  }
  return dir;
}

/** Whether Postgres's server binaries are installed (Debian's `postgresql` package, or `POSTGRES_BIN`). */
export function hasPostgresBinaries(): boolean {
  return POSTGRES_BIN !== undefined && existsSync(join(POSTGRES_BIN, "initdb"));
}

/** Whether Debian's `pgbouncer` is installed. */
export function hasPgBouncer(): boolean {
  try {
    execFileSync(PGBOUNCER, ["--version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

export interface PostgresServer {
  port: number;
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  url: string;
  /** Stops the server as a restart does: `fast` ends every connection with 57P01, `immediate` as a crash would. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  /** Everything the server logged (statements too, with `log_statement=all`). */
  log(): string;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

/** Creates and starts a cluster; `settings` are `name=value` server settings. */
export async function startPostgres(settings: string[] = []): Promise<PostgresServer> {
  const port = await freePort();
  const dir = serverFolder("sanitizer-postgres-");
  const data = join(dir, "data");
  const logFile = join(dir, "server.log");
  // Not execFileSync: the app's connections must hear the server go away while it stops, as they would in production.
  const run = (binary: string, args: string[]) =>
    promisify(execFile)(...asServerUser(join(POSTGRES_BIN!, binary), args));
  await run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = [`-p ${port}`, "-c listen_addresses=127.0.0.1", `-k ${dir}`, "-c fsync=off"]
    .concat(settings.map((s) => `-c ${s}`))
    .join(" ");
  let running = false;
  const server: PostgresServer = {
    port,
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await run("pg_ctl", ["-D", data, "-l", logFile, "-o", options, "-w", "start"]);
      running = true;
    },
    stop: async (mode = "fast") => {
      if (!running) return;
      await run("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"]);
      running = false;
    },
    log: () => readFileSync(logFile, "utf8"),
    close: async () => {
      await server.stop("immediate");
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  // A crashed test run must not leave a server behind.
  process.once("exit", () => {
    if (running) execFileSync(...asServerUser(join(POSTGRES_BIN!, "pg_ctl"), ["-D", data, "-m", "immediate", "stop"]));
  });
  return server;
}

export interface PgBouncer {
  port: number;
  /** The URL of database `postgres` through PgBouncer. */
  url: string;
  close(): Promise<void>;
}

/** Starts PgBouncer in front of `server`, pooling `mode` with at most `poolSize` server connections. */
export async function startPgBouncer(
  server: PostgresServer,
  { mode, poolSize }: { mode: "transaction" | "session"; poolSize: number },
): Promise<PgBouncer> {
  const port = await freePort();
  const dir = serverFolder("sanitizer-pgbouncer-");
  const ini = join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `postgres = host=127.0.0.1 port=${server.port} dbname=postgres`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      "auth_type = trust",
      `auth_file = ${join(dir, "users.txt")}`,
      `pool_mode = ${mode}`,
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 500",
      // Retry a server that refused a login soon, not after the default 15 s.
      "server_login_retry = 1",
      `logfile = ${join(dir, "pgbouncer.log")}`,
    ].join("\n"),
  );
  writeFileSync(join(dir, "users.txt"), '"postgres" ""\n');
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  const child: ChildProcess = spawn(...asServerUser(PGBOUNCER, [ini]), { stdio: "ignore" });
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const { default: pg } = await import("pg");
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (attempt > 100 || child.exitCode !== null) throw new Error("pgbouncer did not start", { cause: error });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  process.once("exit", () => child.kill("SIGKILL"));
  return {
    port,
    url,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
