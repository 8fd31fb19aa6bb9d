/**
 * Postgres restarted under an app on `FastPostgresSaver.fromConnString`, the way our docs build it: between two
 * turns and in the middle of one. A restart ends every connection with 57P01; node-postgres reports that as an
 * `error` event, and an unheard one ends the process (here vitest reports it as an unhandled error).
 */
import { HumanMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { FastPostgresSaver, PostgresUnavailableError } from "../../src/postgres/index.js";
import { hasPostgresBinaries, startPostgres, type PostgresServer } from "../support/servers/postgres-server.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel, nextTurn } from "../support/graphs/scenarios.js";

const available = hasPostgresBinaries();
if (!available && process.env.CI === "true")
  throw new Error("Postgres's server binaries are not installed; CI requires them: apt-get install -y postgresql");
if (!available)
  console.warn("Skipping Postgres restart tests: install postgresql (its initdb and pg_ctl) to run them.");

/** Every checkpoint id of the thread, newest first. */
async function checkpointIds(saver: FastPostgresSaver, thread: string): Promise<string[]> {
  const ids = [];
  for await (const tuple of saver.list({ configurable: { thread_id: thread } })) ids.push(tuple.checkpoint.id);
  return ids;
}

describe.runIf(available)("FastPostgresSaver.fromConnString across Postgres restarts", () => {
  let server: PostgresServer;
  let saver: FastPostgresSaver;
  beforeAll(async () => {
    server = await startPostgres();
    saver = FastPostgresSaver.fromConnString(server.url);
    await saver.setup();
  });
  afterAll(async () => {
    await saver?.end();
    await server?.close();
  });

  it("answers the next turn after a restart between turns, with every checkpoint still there", async () => {
    const checkpointer = new SanitizingCheckpointer(saver);
    await nextTurn(checkpointer, "anthropic", "between", FIRST_QUESTION);
    const before = await checkpointIds(saver, "between");
    await server.stop("fast");
    await server.start();
    // Let the pool hear of its ended connections, as an app idle between two turns does.
    await new Promise((r) => setTimeout(r, 100));
    const { messages } = await nextTurn(checkpointer, "anthropic", "between");
    expect(messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
    const after = await checkpointIds(saver, "between");
    expect(after.slice(-before.length)).toEqual(before);
  });

  it("completes a turn whose tool ran while Postgres restarted", async () => {
    const graph = reactGraph({
      model: agentModel("anthropic"),
      tools: {
        search: async () => {
          await server.stop("fast");
          await server.start();
          return "Paris: 15°C";
        },
        lookup: () => LOOKUP_RESULT,
      },
    }).compile(new SanitizingCheckpointer(saver));
    const config = { configurable: { thread_id: "mid-turn" }, durability: "sync" as const };
    const state = await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
    expect(state.messages.at(-1)).toMatchObject({ content: "Paris is 15°C, Seoul is 12°C." });
    expect((await checkpointIds(saver, "mid-turn")).length).toBeGreaterThan(3);
  });

  it("fails a turn that finds Postgres down, saying so, and the next turn after it is back is answered", async () => {
    const checkpointer = new SanitizingCheckpointer(saver);
    await nextTurn(checkpointer, "anthropic", "outage");
    const before = await checkpointIds(saver, "outage");
    const graph = reactGraph({
      model: agentModel("anthropic"),
      tools: {
        search: async () => {
          await server.stop("immediate");
          return "Paris: 15°C";
        },
        lookup: () => LOOKUP_RESULT,
      },
    }).compile(checkpointer);
    const started = Date.now();
    const error = await graph
      .invoke(
        { messages: [new HumanMessage(FIRST_QUESTION)] },
        { configurable: { thread_id: "outage" }, durability: "sync" },
      )
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(PostgresUnavailableError);
    expect((error as Error).message).toMatch(/^Postgres is unreachable .*connectionTimeoutMillis/);
    await server.start();
    const { messages } = await nextTurn(checkpointer, "anthropic", "outage");
    expect(messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
    expect((await checkpointIds(saver, "outage")).slice(-before.length)).toEqual(before);
  });
});
