// The five defects of issue 16 as threads a finished run stored, sent with the next user message through
// each real client that sends the shape: on the raw saver (rejected where the provider rejects it), through
// the sanitizer (its default policy) and through repairMessages (tail repaired): repaired is always accepted.
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer, repairMessages } from "../../../src/index.js";
import {
  CLIENTS,
  chatModel,
  startEmulator,
  type Client,
  type ProviderEmulator,
} from "../../support/provider-emulator/index.js";
import {
  FINAL_ANSWER,
  NEXT_QUESTION,
  agentScript,
  runTurn,
  storeFinishedRun,
} from "../../support/graphs/wire-agents.js";
import { defectThreads } from "./histories.js";

const ALL_BUT_RESPONSES = CLIENTS.filter((c) => c !== "openai-responses");
const EMPTY_CONTENT: Client[] = ["anthropic", "gemini", "bedrock"];

/** Who rejects the raw thread's next turn (a thread missing here is accepted raw by every client that sends it). */
const RAW_REJECTED_BY: Record<string, Client[]> = {
  // ChatAnthropic sends the content's tool_use blocks; the Responses client replays its output items.
  "1. a valid call and an invalid one, stored as Responses output items": ["openai-responses"],
  "1. a valid call and an invalid one, stored as ChatAnthropic tool_use blocks": ["anthropic"],
  // With no tool_calls, ChatOpenAI sends additional_kwargs.tool_calls (the Responses client too).
  "3. a turn whose only call is invalid, stored as tool_calls + invalid_tool_calls": EMPTY_CONTENT,
  "3. a turn whose only call is invalid, stored as ChatOpenAI additional_kwargs": ["openai", "openai-responses"],
  "3. a turn whose only call is invalid, stored as Responses output items": ["openai-responses"],
  "3. a turn whose only call is invalid, stored as ChatAnthropic tool_use blocks": ["anthropic"],
  "2. an empty reply ending a finished run": EMPTY_CONTENT,
  "2. an empty content list ending a finished run": EMPTY_CONTENT,
  // Gemini pairs calls by position and ChatMistralAI rewrites ids: no id rule reaches them.
  "4. an empty call id": ["anthropic", "openai", "openai-responses", "bedrock"],
  "4. a blank call id": ["anthropic", "bedrock"],
  "4. a call id outside [A-Za-z0-9_-]": ["anthropic", "bedrock"],
  "4. a call id over 40 characters": ["openai"],
  "4. a call id used twice": ["anthropic"],
  // The Responses API looks for a call's output anywhere after it.
  "5. a result stored after the next user message": ALL_BUT_RESPONSES,
};

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
  emulator.script = agentScript();
});
afterAll(() => emulator.close());

/** The reply to the next question on a thread that stored `history`, read raw or through the sanitizer. */
async function nextTurn(client: Client, history: Parameters<typeof storeFinishedRun>[2], sanitize: boolean) {
  const saver = new MemorySaver();
  await storeFinishedRun(saver, "thread", history);
  const messages = await runTurn(
    "StateGraph + ToolNode",
    chatModel(client, emulator.url),
    sanitize ? new SanitizingCheckpointer(saver) : saver,
    "thread",
    NEXT_QUESTION,
  );
  return messages.at(-1)?.text;
}

describe.each(Object.entries(defectThreads()))("%s", (defect, { history, clients }) => {
  it.each(clients)("%s: raw as the provider judges it; sanitized and repaired accepted", async (client) => {
    const raw = nextTurn(client, history, false);
    if (RAW_REJECTED_BY[defect]?.includes(client)) {
      await expect(raw).rejects.toThrow();
      expect(emulator.last(client).status).toBe(400);
    } else {
      expect(await raw).toBe(FINAL_ANSWER);
    }

    expect(await nextTurn(client, history, true)).toBe(FINAL_ANSWER);
    const repaired = await chatModel(client, emulator.url).invoke([
      ...repairMessages(history).messages,
      new HumanMessage(NEXT_QUESTION),
    ]);
    expect(repaired.text).toBe(FINAL_ANSWER);
  });
});
