/** Short builders for histories in tests: ids are given so outputs can be compared by id. */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";

export const human = (id: string, content = `user ${id}`) => new HumanMessage({ id, content });
export const system = (id: string, content = "You are helpful.") => new SystemMessage({ id, content });
export const reply = (id: string, content = `reply ${id}`) => new AIMessage({ id, content });
export const calls = (id: string, ...callIds: string[]) =>
  new AIMessage({ id, content: "", tool_calls: callIds.map((c) => ({ id: c, name: `tool_${c}`, args: {}, type: "tool_call" as const })) });
export const result = (id: string, callId: string, content = `result ${id}`) =>
  new ToolMessage({ id, content, tool_call_id: callId, name: `tool_${callId}` });

/** A compact picture of a history: `type:id`, for readable assertions. */
export const shape = (messages: readonly unknown[]) =>
  messages.map((m) => {
    const msg = m as { type?: string; id?: string; tool_call_id?: string };
    return `${msg.type}:${msg.id}${msg.tool_call_id ? `>${msg.tool_call_id}` : ""}`;
  });
