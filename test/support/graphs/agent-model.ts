/**
 * The scripted model of the scenarios, as strict as the chosen provider. It imports only @langchain/core, so the
 * compatibility apps (test/compat/app/), which run on every LangGraph.js 1.x, bundle it too.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { ProviderProfile } from "../oracle/provider-rejections.js";
import { StrictChatModel } from "./strict-chat-model.js";

export const FIRST_QUESTION = "What is the weather in Paris and Seoul?";

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
      if (last.type === "human" && last.content === FIRST_QUESTION) {
        return {
          content: "Let me check both cities. ",
          toolCalls: [
            { name: "search", args: { city: "Paris" } },
            { name: "lookup", args: { city: "Seoul" } },
          ],
        };
      }
      return { content: last.type === "tool" ? "Paris is 15°C, Seoul is 12°C." : "Happy to help with that." };
    },
  });
}
