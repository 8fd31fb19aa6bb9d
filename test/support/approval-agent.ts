/** An agent whose tool asks a human to approve the call first (`interrupt()`), as in the interrupt guide. */
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph, interrupt } from "@langchain/langgraph";

/** The builder; compile it with or without a checkpointer (a server assigns its own). */
export function approvalAgent() {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", (state) =>
      state.messages.at(-1)?.type === "tool"
        ? { messages: [new AIMessage(`Done: ${state.messages.at(-1)!.content}`)] }
        : {
            messages: [
              new AIMessage({
                content: "",
                tool_calls: [{ id: "email_1", name: "send_email", args: { to: "bob@example.com" } }],
              }),
            ],
          },
    )
    .addNode("tools", (state) => {
      const call = (state.messages.at(-1) as AIMessage).tool_calls![0]!;
      const answer = interrupt({ question: "Send this email?", to: call.args.to }) as { action: string };
      return {
        messages: [
          new ToolMessage({
            content: answer.action === "approve" ? "Email sent" : "Email cancelled",
            tool_call_id: call.id!,
            name: call.name,
          }),
        ],
      };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s) => ((s.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END), [
      "tools",
      END,
    ])
    .addEdge("tools", "agent");
}
