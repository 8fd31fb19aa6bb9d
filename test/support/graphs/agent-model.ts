/**
 * The scripted model of the scenarios, as strict as the chosen provider. It imports only @langchain/core, so the
 * compatibility apps (test/compat/app/), which run on every LangGraph.js 1.x, bundle it too.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { ProviderProfile } from "../oracle/provider-rejections.js";
import { StrictChatModel, type ScriptedReply } from "./strict-chat-model.js";

export const FIRST_QUESTION = "What is the weather in Paris and Seoul?";

/** The reply to a question about the weather: two parallel calls. */
export const TWO_CALLS: ScriptedReply = {
  content: "Let me check both cities. ",
  toolCalls: [
    { name: "search", args: { city: "Paris" } },
    { name: "lookup", args: { city: "Seoul" } },
  ],
};

/** The reply to anything else: the answer after the results, a plain one otherwise. */
export const plainReply = (last: BaseMessage): ScriptedReply => ({
  content: last.type === "tool" ? "Paris is 15°C, Seoul is 12°C." : "Happy to help with that.",
});

/** A model that calls two tools for the first question and answers plainly otherwise. */
export function agentModel(
  profile: ProviderProfile,
  onToken?: (index: number, call: number, signal: AbortSignal | undefined) => void,
  onReply?: (call: number) => void,
) {
  return new StrictChatModel({
    profile,
    onToken,
    onReply,
    script: (messages: BaseMessage[]) => {
      const last = messages.at(-1)!;
      return last.type === "human" && last.content === FIRST_QUESTION ? TWO_CALLS : plainReply(last);
    },
  });
}
