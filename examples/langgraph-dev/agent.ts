/**
 * The graph `langgraph dev` serves (see langgraph.json): the Agent Server example's agent, protected with
 * `sanitizeGraph`. The server assigns its own checkpointer to the graph on every request; `sanitizeGraph`
 * reads it through a SanitizingCheckpointer, so the next message after a cancelled run works.
 *
 * In your project: `import { sanitizeGraph } from "langgraph-checkpoint-sanitizer";`. This example imports the
 * repository's source, so it runs what the tests prove without a build.
 */
import { sanitizeGraph } from "../../src/index.js";
import { exampleAgent } from "../agent-server/agent.js";

// Its search tool takes SEARCH_DELAY_MS (default 3000), time enough to press stop.
export const graph = sanitizeGraph(exampleAgent({ searchDelayMs: Number(process.env.SEARCH_DELAY_MS ?? 3000) }));
