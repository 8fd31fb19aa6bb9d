// A reply the model streamed to its end, as LangGraph stores it when the graph streams tokens (streamMode
// "messages", as chat UIs and the Agent Server do): ChatAnthropic keeps each call's streamed input as
// `input_json_delta` blocks next to its `tool_use` block. Such a reply is finished, not one saved mid-stream
// (pattern M): a thread that holds it reads as raw, and a call of it paused at `interrupt()` resumes as on raw.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver, interrupt } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sanitizeGraph } from "../../../src/index.js";
import {
  CLIENTS,
  chatModel,
  startEmulator,
  type Client,
  type ProviderEmulator,
} from "../../support/provider-emulator/index.js";
import { z } from "zod";
import { toolNodeAgent } from "../../support/graphs/wire-agents.js";

const QUESTION = "Email Bob?";
const DONE = "Sent.";

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
  emulator.script = (last) =>
    last.role === "user" && last.text === QUESTION
      ? { text: "Asking first. ", calls: [{ name: "confirm", args: { to: "bob" } }] }
      : { text: DONE };
});
afterAll(() => emulator.close());

const confirm = tool((args) => `${String(interrupt({ to: args.to }))}: sent to ${args.to}`, {
  name: "confirm",
  description: "Sends an email once a human approves it.",
  schema: z.object({ to: z.string() }),
});

/** What a client sees of a thread that streams a call, pauses at `interrupt()`, is resumed, then gets a new message. */
async function approval(client: Client, sanitized: boolean) {
  const agent = toolNodeAgent(chatModel(client, emulator.url), [confirm]).compile({ checkpointer: new MemorySaver() });
  const graph = sanitized ? sanitizeGraph(agent) : agent;
  const config = { configurable: { thread_id: "t" }, streamMode: "messages" as const };
  const stream = async (input: unknown) => {
    for await (const _chunk of await graph.stream(input as never, config));
  };
  const types = (messages: BaseMessage[]) => messages.map((m) => [m.type, m.text]);
  await stream({ messages: [new HumanMessage(QUESTION)] });
  const paused = await graph.getState(config);
  await stream(new Command({ resume: "approved" }));
  const resumed = await graph.getState(config);
  await stream({ messages: [new HumanMessage("Thanks")] });
  const next = await graph.getState(config);
  return {
    paused: [paused.next, types(paused.values.messages)],
    resumed: types(resumed.values.messages),
    next: types(next.values.messages),
    rejected: emulator.requests.filter((r) => r.status !== 200).map((r) => r.rejected),
  };
}

describe("a streamed reply with a call, paused at interrupt() and resumed", () => {
  it.each(CLIENTS)("%s: reads, resumes and continues exactly as on the raw saver", async (client) => {
    emulator.requests.splice(0);
    const raw = await approval(client, false);
    expect(raw.rejected).toEqual([]);
    expect(raw.resumed.at(-2)).toEqual(["tool", "approved: sent to bob"]);
    expect(await approval(client, true)).toEqual(raw);
  });
});
