/**
 * npm run chat:example
 *
 * A chat page in the browser, on http://127.0.0.1:2025/ (PORT to change; 0 for a free port), with the
 * assistants of server.ts. Send a message, press Stop while the search tool runs (SEARCH_DELAY_MS, default
 * 3000), and send another: `?assistant=agent` answers it, `?assistant=agent-raw` shows the provider's error.
 */
import { startChatServer } from "./server.js";
import { numberFromEnv } from "../shared/env.js";

async function main() {
  const server = await startChatServer({
    port: numberFromEnv("PORT", 2025, 65535),
    searchDelayMs: numberFromEnv("SEARCH_DELAY_MS", 3000),
  });
  console.log(
    `Chat page on ${server.url} (assistants: agent, agent-raw, approval, approval-raw; ?assistant= picks one)`,
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      await server.close();
      process.exit(0);
    });
  }
}

main().catch((error: Error) => {
  console.error(`chat:example: ${error.message}`);
  process.exitCode = 1;
});
