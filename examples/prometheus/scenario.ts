/**
 * What the metrics show after a support day's worst case: a turn cancelled while a tool runs, then the user's next
 * message through `sanitizeGraph`, then a clean turn. Reuses the test fixtures (the strict fake model, the
 * cancellation helper), as the demo does.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { sanitizeGraph } from "../../src/index.js";
import { reactGraph } from "../../test/support/graphs/react-graph.js";
import { agentModel, cancelFirstTurn, LOOKUP_RESULT } from "../../test/support/graphs/scenarios.js";

export async function cancelledThenRepaired(threadId = "prometheus-example") {
  const saver = new MemorySaver();
  await cancelFirstTurn(saver, "during-tools", threadId);
  const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
  const graph = sanitizeGraph(reactGraph({ model: agentModel("bedrock"), tools }).compile(saver));
  const config = { configurable: { thread_id: threadId }, durability: "sync" as const };
  await graph.invoke({ messages: [new HumanMessage("Thanks, and tomorrow?")] }, config);
  await graph.invoke({ messages: [new HumanMessage("And the day after?")] }, config);
}
