/**
 * Both Postgres savers behind a real PgBouncer in transaction mode, where a server connection serves another
 * client after every transaction: a named prepared statement made on one connection is missing on the next
 * ("prepared statement does not exist"). The server logs every statement, so the test sees that neither saver
 * names one, and a control query that does is caught by the same check.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { FastPostgresSaver } from "../../src/postgres/index.js";
import {
  hasPgBouncer,
  hasPostgresBinaries,
  startPgBouncer,
  startPostgres,
  type PgBouncer,
  type PostgresServer,
} from "../support/servers/postgres-server.js";
import { cancelFirstTurn, nextTurn } from "../support/graphs/scenarios.js";

const available = hasPostgresBinaries() && hasPgBouncer();
if (!available && process.env.CI === "true")
  throw new Error(
    "pgbouncer or Postgres's server binaries are not installed; CI requires them (.ci/run installs them).",
  );
if (!available) console.warn("Skipping PgBouncer tests: apt-get install -y pgbouncer postgresql to run them.");

const THREADS = 20;

/** The names of the prepared statements the server executed, from its statement log. */
const namedStatements = (log: string) => [...log.matchAll(/LOG: {2}execute (?!<unnamed>)([^:\s]+)/g)].map((m) => m[1]);

describe.runIf(available)("the Postgres savers behind PgBouncer in transaction mode", () => {
  let server: PostgresServer;
  let bouncer: PgBouncer;
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    server = await startPostgres(["log_statement=all"]);
    // Fewer server connections than the app's pool, as PgBouncer is deployed.
    bouncer = await startPgBouncer(server, { mode: "transaction", poolSize: 4 });
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await bouncer?.close();
    await server?.close();
  });
  const pool = () => {
    const p = new pg.Pool({ connectionString: bouncer.url, max: 10 });
    pools.push(p);
    return p;
  };

  it.each<[string, (pool: pg.Pool) => BaseCheckpointSaver & { setup(): Promise<void> }]>([
    ["FastPostgresSaver", (p) => new FastPostgresSaver(p, undefined, { schema: "fast" })],
    ["PostgresSaver", (p) => new PostgresSaver(p, undefined, { schema: "official" })],
  ])("%s runs parallel threads without a named prepared statement", async (_name, create) => {
    const saver = create(pool());
    await saver.setup();
    const checkpointer = new SanitizingCheckpointer(saver);
    const answers = await Promise.all(
      Array.from({ length: THREADS }, async (_, i) => {
        await cancelFirstTurn(checkpointer, "during-tools", `bounced-${i}`);
        const { messages } = await nextTurn(checkpointer, "bedrock", `bounced-${i}`);
        return messages.at(-1)?.content;
      }),
    );
    expect(answers).toEqual(Array.from({ length: THREADS }, () => "Happy to help with that."));
    const log = server.log();
    expect(log).toMatch(/execute <unnamed>/);
    expect(namedStatements(log)).toEqual([]);
  });

  it("catches a named prepared statement when one is sent", async () => {
    await pool().query({ name: "control_statement", text: "SELECT 1" });
    expect(namedStatements(server.log())).toEqual(["control_statement"]);
  });
});
