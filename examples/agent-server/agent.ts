/**
 * The example's assistant "agent": a ReAct agent (LLM node, tools, loop) with
 * a scripted model as strict as Bedrock's Converse API about history, so a
 * fresh clone runs without an API key and a wedged thread shows as an error.
 * It looks up every question with a slow `search` tool: press stop (abort the
 * SDK stream) while it runs, then send another message. The model and graph
 * are the test suite's own fixtures, so the example runs what the tests prove.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { reactGraph } from "../../test/support/graphs/react-graph.js";
import { StrictChatModel, sleep } from "../../test/support/graphs/strict-chat-model.js";

/** The graph, compiled without a checkpointer: the server gives it one. */
export function exampleAgent({ searchDelayMs = 3000 } = {}) {
  const model = new StrictChatModel({
    profile: "bedrock",
    tokenDelayMs: 20,
    script: (messages: BaseMessage[]) => {
      const last = messages.at(-1)!;
      if (last.type === "tool") return { content: `Here is what I found: ${last.text}` };
      return {
        content: "Let me look that up. ",
        toolCalls: [{ name: "search", args: { query: last.text } }],
      };
    },
  });
  const { builder } = reactGraph({
    model,
    tools: {
      search: async ({ query }, config) => {
        await sleep(searchDelayMs, config.signal);
        return `three results for "${String(query)}"`;
      },
    },
  });
  // "sync": a step's checkpoint is stored before the next starts, so when a
  // cancelled run's stream closes, the thread is settled for the next message.
  return builder.compile().withConfig({ durability: "sync" });
}
