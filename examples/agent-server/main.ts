/**
 * npm run serve:example
 *
 * The Agent Server routes on http://127.0.0.1:2024 (PORT to change), serving
 * the assistant "agent", protected by sanitizeGraph, on SQLite by default
 * (CHECKPOINTER=postgres or redis: see checkpointer.ts). Its search tool takes
 * SEARCH_DELAY_MS (default 3000), time enough to press stop. Drive it with
 * `@langchain/langgraph-sdk`:
 *
 *   const client = new Client({ apiUrl: "http://127.0.0.1:2024" });
 *   const { thread_id } = await client.threads.create();
 *   for await (const part of client.runs.stream(thread_id, "agent", { input: { messages: [{ type: "human", content: "hi" }] } })) ...
 */
import { sanitizeGraph } from "../../src/index.js";
import { exampleAgent } from "./agent.js";
import { openCheckpointer } from "./checkpointer.js";
import { startAgentServer } from "./server.js";
import { numberFromEnv } from "../shared/env.js";

async function main() {
  const port = numberFromEnv("PORT", 2024, 65535);
  const searchDelayMs = numberFromEnv("SEARCH_DELAY_MS", 3000);
  const store = await openCheckpointer();
  const server = await startAgentServer({
    // sanitizeGraph sees each run's input and the runs in flight, so approvals, retries and getState of a
    // running thread read as stored, while a new message after a cancelled run gets a repaired history.
    graphs: { agent: sanitizeGraph(exampleAgent({ searchDelayMs })) },
    checkpointer: store.checkpointer,
    port,
  }).catch(async (error) => {
    await store.close();
    throw error;
  });
  console.log(
    `Agent Server listening on ${server.url} (assistant "agent", protected by sanitizeGraph; ${store.backend} at ${store.location})`,
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      await server.close();
      await store.close();
      process.exit(0);
    });
  }
}

main().catch((error: Error) => {
  console.error(`serve:example: ${error.message}`);
  process.exitCode = 1;
});
