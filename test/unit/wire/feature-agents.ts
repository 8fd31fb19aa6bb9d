/** Agents whose own steps make a model request no stored thread makes. */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { AIMessage } from "@langchain/core/messages";
import { createAgent, createMiddleware } from "langchain";
import { sanitizeMessagesMiddleware } from "../../../src/middleware/index.js";

/**
 * A writer agent, then a reviewer agent on the same messages: the reviewer's first model request ends on the writer's
 * answer (a prefill, to the provider), as a supervisor's or a swarm's next agent sees the last one's reply.
 */
export function writerThenReviewer(model: BaseChatModel, sanitized: boolean) {
  const agent = (name: string) => {
    const inner = createAgent({ model, tools: [], name, middleware: sanitized ? [sanitizeMessagesMiddleware()] : [] });
    return async (state: typeof MessagesAnnotation.State) => ({ messages: (await inner.invoke(state)).messages });
  };
  return new StateGraph(MessagesAnnotation)
    .addNode("writer", agent("writer"))
    .addNode("reviewer", agent("reviewer"))
    .addEdge(START, "writer")
    .addEdge("writer", "reviewer")
    .addEdge("reviewer", END)
    .compile();
}

/**
 * A `createAgent` middleware that rebuilds each reply of a model request from its text and calls, as apps that merge
 * or normalize messages do: what else the reply held (Gemini's thought signatures) is lost.
 */
export const rebuildReplies = createMiddleware({
  name: "RebuildReplies",
  wrapModelCall: (request, handler) =>
    handler({
      ...request,
      messages: request.messages.map((m) =>
        AIMessage.isInstance(m) ? new AIMessage({ id: m.id, content: m.content, tool_calls: m.tool_calls }) : m,
      ),
    }),
});
