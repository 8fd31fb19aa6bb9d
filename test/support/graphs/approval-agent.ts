/**
 * An agent whose tool asks a human to approve the call first (`interrupt()`), as in the interrupt guide
 * (source 002): the AI asks to send an email; the answer approves, edits (`to`) or rejects it.
 */
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { END, type MessagesAnnotation, START, StateGraph, interrupt } from "@langchain/langgraph";
import { messagesState, type MessagesField } from "./react-graph.js";

/** What the tool's `interrupt()` asks. */
export const APPROVAL_QUESTION = {
  action: "send_email",
  to: "bob@example.com",
  subject: "Hi",
  body: "Lunch?",
  message: "Approve sending this email?",
};

/** The builder, its conversation in `field`; compile it with or without a checkpointer (a server assigns its own). */
export function approvalAgent(field?: MessagesField) {
  const { to, subject, body } = APPROVAL_QUESTION;
  return new StateGraph(messagesState("messages", field) as typeof MessagesAnnotation)
    .addNode("agent", (state) =>
      state.messages.at(-1)?.type === "tool"
        ? { messages: [new AIMessage(`Done: ${state.messages.at(-1)!.content}`)] }
        : {
            messages: [
              new AIMessage({
                content: "",
                tool_calls: [{ id: "email_1", name: "send_email", args: { to, subject, body } }],
              }),
            ],
          },
    )
    .addNode("tools", (state) => {
      const call = (state.messages.at(-1) as AIMessage).tool_calls![0]!;
      const args = call.args as { to: string; subject: string; body: string };
      const response = interrupt({ ...APPROVAL_QUESTION, ...args }) as { action: string; to?: string };
      const content =
        response.action === "approve" ? `Email sent to ${response.to ?? args.to}` : "Email cancelled by user";
      return { messages: [new ToolMessage({ content, tool_call_id: call.id!, name: call.name })] };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s) => ((s.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END), [
      "tools",
      END,
    ])
    .addEdge("tools", "agent");
}
