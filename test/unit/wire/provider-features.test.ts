// What the newest provider features leave in a stored history (server tools, thinking signatures, hosted tools,
// provider-only rules), written through the graph's reducer and followed by one new message through each real client
// whose provider has the feature: raw; through sanitizeGraph by default and under the setting that names the provider
// or model; and through sanitizeMessagesMiddleware on a createAgent agent. Each emulator rule first fires on the raw
// history, with the provider's text.
import { ChatAnthropic } from "@langchain/anthropic";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, modelFallbackMiddleware } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repairMessages, sanitizeGraph, type SanitizingCheckpointerOptions } from "../../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../../src/middleware/index.js";
import { rulesOf } from "../../support/oracle/expect-accepted.js";
import {
  CLIENTS,
  chatModel,
  startEmulator,
  type Client,
  type ProviderEmulator,
} from "../../support/provider-emulator/index.js";
import {
  FINAL_ANSWER,
  agentScript,
  agentTools,
  answerNext,
  storeFinishedRun,
  toolNodeAgent,
  type NextWay,
  type Outcome,
} from "../../support/graphs/wire-agents.js";
import { rebuildReplies, writerThenReviewer } from "./feature-agents.js";
import {
  anthropicWithServerTools,
  emptyErrorResult,
  emptySend,
  firstTurn,
  gemini3Model,
  holds,
  responsesModel,
  stoppedTurn,
  summaryMidHistory,
} from "./feature-shapes.js";

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
  emulator.script = agentScript();
});
afterAll(() => emulator.close());

/** A stored shape: the clients whose provider has the feature, how the thread is made, and what is expected. */
interface FeatureShape {
  clients: readonly Client[];
  /** The stored history, made by the real client `client` on the emulator. */
  stored: (client: Client) => Promise<BaseMessage[]> | BaseMessage[];
  /** The model the next message goes to. @default chatModel(client) */
  next?: (client: Client) => BaseChatModel;
  /** The sanitizeGraph options that state the provider's or the model's rule, for a rule of some providers only. */
  setting?: (client: Client) => SanitizingCheckpointerOptions;
  /** The raw graph's outcome by client; a client not listed answers. */
  raw: Partial<Record<Client, Outcome>>;
  /** sanitizeGraph with no options, where it differs from "answered" (a rule of some providers or models only). */
  byDefault?: Partial<Record<Client, Outcome>>;
  /** The provider's text for the raw rejection, by client. */
  text: Partial<Record<Client, string>>;
}

const of = (clients: readonly Client[], outcome: Outcome) => Object.fromEntries(clients.map((c) => [c, outcome]));
const SONNET = "claude-sonnet-4-5";

const SHAPES: Record<string, FeatureShape> = {
  "a web search's use cut off mid-stream (the partial reply kept on stop)": {
    clients: ["anthropic"],
    stored: () =>
      stoppedTurn(
        emulator,
        anthropicWithServerTools(emulator.url),
        { text: "Sunny.", serverTools: [{ name: "web_search" }], hang: "server-tool" },
        holds("input_json_delta", "weather in Paris"),
      ),
    raw: { anthropic: "rejected" },
    text: {
      anthropic: "tool use with id `srvtoolu_",
    },
  },
  "a finished web fetch streamed through ChatAnthropic, which drops its result block": {
    clients: ["anthropic"],
    stored: () =>
      stoppedTurn(
        emulator,
        anthropicWithServerTools(emulator.url),
        { text: "Sunny.", serverTools: [{ name: "web_fetch" }] },
        holds("text", "Sunny."),
      ),
    raw: { anthropic: "rejected" },
    text: { anthropic: "was found without a corresponding `web_fetch_tool_result` block" },
  },
  "a thinking block cut off before its signature (the partial reply kept on stop)": {
    clients: ["anthropic"],
    stored: () =>
      stoppedTurn(
        emulator,
        anthropicWithServerTools(emulator.url, SONNET, true),
        { thinking: "Checking the forecast.", text: "Sunny.", hang: "thinking" },
        holds("thinking", "Checking the forecast."),
      ),
    raw: { anthropic: "rejected" },
    // ChatAnthropic keeps the empty signature the block started with: pydantic-ai#7597's case.
    text: { anthropic: "Invalid `signature` in `thinking` block" },
  },
  "thinking blocks signed by another model (a reply the fallback model gave)": {
    clients: ["anthropic"],
    stored: () =>
      firstTurn(emulator, anthropicWithServerTools(emulator.url, "claude-opus-4-1-20250805", true), {
        thinking: "Checking the forecast.",
        text: "Sunny.",
      }),
    setting: () => ({ model: SONNET }),
    raw: { anthropic: "rejected" },
    byDefault: { anthropic: "rejected" },
    text: { anthropic: "Invalid `signature` in `thinking` block" },
  },
  "a Responses reply kept on stop after its reasoning began": {
    clients: ["openai-responses"],
    stored: () =>
      stoppedTurn(
        emulator,
        responsesModel(emulator.url),
        { thinking: "Checking the forecast.", text: "It is sunny today.", hang: true },
        holds("text"),
      ),
    raw: { "openai-responses": "rejected" },
    text: { "openai-responses": "not found. Items are not persisted when `store` is set to false" },
  },
  "a Responses reply of an app that keeps nothing (zdrEnabled: store false), its reasoning replayed by id": {
    clients: ["openai-responses"],
    stored: () => firstTurn(emulator, responsesModel(emulator.url, true), { thinking: "Checking.", text: "Sunny." }),
    next: () => responsesModel(emulator.url, true),
    setting: () => ({ store: false }),
    raw: { "openai-responses": "rejected" },
    // The reply was not streamed: it does not record that nothing was kept.
    byDefault: { "openai-responses": "rejected" },
    text: { "openai-responses": "not found. Items are not persisted when `store` is set to false" },
  },
  "a Responses web search stored unfinished (the response stopped incomplete)": {
    clients: ["openai-responses"],
    stored: () =>
      firstTurn(emulator, responsesModel(emulator.url), {
        thinking: "Checking.",
        text: "Sunny.",
        serverTools: [{ name: "web_search", status: "searching" }],
        incomplete: true,
      }),
    raw: { "openai-responses": "rejected" },
    text: { "openai-responses": "Item with id 'ws_" },
  },
  "an empty error result": {
    clients: CLIENTS,
    stored: emptyErrorResult,
    setting: (client) => ({ provider: rulesOf(client) }),
    raw: { bedrock: "rejected" },
    byDefault: { bedrock: "rejected" },
    text: { bedrock: "toolResult.content.0 is blank" },
  },
  "an empty HumanMessage": {
    clients: CLIENTS,
    stored: emptySend,
    setting: (client) => ({ provider: rulesOf(client) }),
    raw: { ...of(["anthropic", "gemini"], "rejected"), bedrock: "refused by the client" },
    byDefault: { ...of(["anthropic", "gemini"], "rejected"), bedrock: "refused by the client" },
    text: {
      anthropic: "all messages must have non-empty content",
      gemini: "contents.parts must not be empty",
    },
  },
  "a SystemMessage left mid-history by summarization": {
    clients: CLIENTS,
    stored: summaryMidHistory,
    setting: (client) => ({ provider: rulesOf(client) }),
    raw: { ...of(["anthropic", "mistral"], "rejected"), gemini: "refused by the client" },
    byDefault: { ...of(["anthropic", "mistral"], "rejected"), gemini: "refused by the client" },
    text: {
      anthropic: "role 'system' is not supported on this model",
      mistral: "Unexpected role 'system' after role 'assistant'",
    },
  },
};

/** The outcome of the next message on a new thread holding `shape`, sent `way` to `client`. */
async function next(client: Client, shape: FeatureShape, way: NextWay): Promise<Outcome> {
  const saver = new MemorySaver();
  await storeFinishedRun(saver, "t", await shape.stored(client));
  const model = shape.next?.(client) ?? chatModel(client, emulator.url);
  return answerNext(emulator, client, model, saver, "t", way);
}

describe.each(Object.entries(SHAPES))("%s, then a new message", (_, shape) => {
  it.each(shape.clients)(
    "%s: rejected raw as the provider words it; answered through the checkpointer (under the setting, for a rule of some providers or models) and through the middleware",
    async (client) => {
      const raw = shape.raw[client] ?? "answered";
      expect(await next(client, shape, "raw")).toBe(raw);
      if (raw === "rejected") expect(emulator.last(client).rejected).toContain(shape.text[client]);
      expect(await next(client, shape, { sanitizeGraph: {} })).toBe(shape.byDefault?.[client] ?? "answered");
      if (shape.setting) expect(await next(client, shape, { sanitizeGraph: shape.setting(client) })).toBe("answered");
      expect(await next(client, shape, "middleware")).toBe("answered");
    },
  );
});

/** Every request that reached Anthropic carried only signed blocks it issued: the emulator checks each one. */
describe("signed blocks through the repair", () => {
  it("a clean thread with a finished server tool and signed thinking reads as stored and is answered", async () => {
    const stored = await firstTurn(emulator, anthropicWithServerTools(emulator.url, SONNET, true), {
      thinking: "Checking the forecast.",
      redacted: true,
      text: "Sunny.",
      serverTools: [{ name: "web_search" }],
    });
    for (const way of [
      "raw",
      { sanitizeGraph: {} },
      { sanitizeGraph: { provider: "strictest" } },
      "middleware",
    ] as const) {
      const saver = new MemorySaver();
      await storeFinishedRun(saver, "t", stored);
      expect(await answerNext(emulator, "anthropic", chatModel("anthropic", emulator.url), saver, "t", way)).toBe(
        "answered",
      );
      const sent = JSON.stringify(emulator.last("anthropic").body);
      for (const block of (stored[1] as AIMessage).content as object[]) {
        if ((block as { type: string }).type !== "text") expect(sent).toContain(JSON.stringify(block).slice(1, -1));
      }
    }
  });
});

/**
 * A request that ends on a reply: a reviewer agent after a writer agent, on the same messages, asks the model with the
 * writer's answer last. Through the middleware only: a read is followed by new input.
 */
describe("a request that ends on a reply", () => {
  // Claude 4.6 takes no prefill, on Anthropic's API and on Bedrock.
  const NO_PREFILL: Partial<Record<Client, string>> = {
    anthropic: "claude-sonnet-4-6",
    bedrock: "anthropic.claude-sonnet-4-6-v1:0",
  };
  const REJECTED: Partial<Record<Client, string>> = {
    anthropic: "This model does not support assistant message prefill.",
    bedrock: "This model does not support assistant message prefill.",
    gemini: "Please ensure that multiturn requests ends with a user role or a function response.",
    mistral: "Expected last role User or Tool (or Assistant with prefix True)",
  };

  it.each(CLIENTS)(
    "%s: rejected raw where the provider takes no prefill, answered through the middleware",
    async (client) => {
      const model = chatModel(client, emulator.url, NO_PREFILL[client]);
      const raw = await writerThenReviewer(model, false)
        .invoke({ messages: [new HumanMessage("Hi")] })
        .then(
          () => "answered",
          () => "rejected",
        );
      expect(raw).toBe(REJECTED[client] ? "rejected" : "answered");
      if (REJECTED[client]) expect(emulator.last(client).rejected).toContain(REJECTED[client]);
      const sanitized = await writerThenReviewer(model, true).invoke({ messages: [new HumanMessage("Hi")] });
      expect(sanitized.messages.at(-1)?.text).toBeTruthy();
    },
  );
});

/**
 * Gemini 3 wants the first call of each step of the current turn signed. A call whose signature no longer travels
 * with it: lost to an app's rewrite mid-turn, or never made (another model made the call, before a fallback to
 * Gemini); and one the repair renames, whose signature goes with it.
 */
describe("a Gemini call whose thought signature no longer travels with it", () => {
  const MISSING = "Function call is missing a thought_signature in functionCall parts.";
  const loop = () =>
    (emulator.script = (last) =>
      last.role === "tool"
        ? { text: FINAL_ANSWER }
        : {
            thinking: "Check the forecast.",
            text: "Let me look. ",
            calls: [{ name: "lookup", args: { city: "Seoul" } }],
          });
  afterAll(() => (emulator.script = agentScript()));

  it("rewritten by another middleware mid-turn: rejected raw, answered through the middleware", async () => {
    loop();
    const agent = (sanitized: boolean) =>
      createAgent({
        model: gemini3Model(emulator.url),
        tools: agentTools(),
        middleware: sanitized ? [rebuildReplies, sanitizeMessagesMiddleware()] : [rebuildReplies],
      });
    await expect(agent(false).invoke({ messages: [new HumanMessage("Weather?")] })).rejects.toThrow(MISSING);
    const { messages } = await agent(true).invoke({ messages: [new HumanMessage("Weather?")] });
    expect(messages.at(-1)?.text).toBe(FINAL_ANSWER);
  });

  /** A turn resumed from the store: a call another model made, then Gemini's signed one, both answered. */
  async function resumedTurn(firstCall: AIMessage, gemini: BaseChatModel, how: "raw" | "sanitized") {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "t" } };
    const question = new HumanMessage({ id: "h1", content: "Weather?" });
    const firstResult = new ToolMessage({ id: "t1", content: "Seoul: 12°C", tool_call_id: "c1", name: "lookup" });
    // Gemini's own step, as it gave it to a request that carried the first call with the documented skip.
    const skip = new AIMessage({
      ...firstCall,
      additional_kwargs: { __gemini_function_call_thought_signatures__: { c1: "skip_thought_signature_validator" } },
    });
    emulator.script = () => ({ thinking: "And Paris.", calls: [{ name: "lookup", args: { city: "Paris" } }] });
    const signed = await gemini.bindTools!(agentTools()).invoke([question, skip, firstResult]);
    loop();
    const result = new ToolMessage({
      content: "Seoul: 12°C",
      tool_call_id: signed.tool_calls![0]!.id!,
      name: "lookup",
    });
    const graph = toolNodeAgent(gemini, agentTools()).compile({ checkpointer: saver });
    // The tools' node stored the second result: the next step is the model's.
    await graph.updateState(config, { messages: [question, firstCall, firstResult, signed, result] }, "tools");
    const run = how === "raw" ? graph : sanitizeGraph(graph, { provider: "gemini" });
    return run.invoke(null, config);
  }

  it("made by another model earlier in the turn, resumed from the store: rejected raw, answered through sanitizeGraph under Gemini's rules", async () => {
    const gemini = gemini3Model(emulator.url);
    const foreign = new AIMessage({
      id: "a1",
      content: "",
      tool_calls: [{ id: "c1", name: "lookup", args: { city: "Seoul" }, type: "tool_call" }],
    });
    await expect(resumedTurn(foreign, gemini, "raw")).rejects.toThrow(MISSING);
    expect((await resumedTurn(foreign, gemini, "sanitized")).messages.at(-1)?.text).toBe(FINAL_ANSWER);
    const sent = JSON.stringify(emulator.last("gemini").body);
    expect(sent).toContain('"thoughtSignature":"skip_thought_signature_validator"');
  });
});

/** The emulator's rules that no stored shape above shows firing, each on a raw history through the real client. */
describe("the emulator's other rules for these features", () => {
  afterAll(() => (emulator.script = agentScript()));
  const question = new HumanMessage({ id: "h1", content: "Weather?" });

  it("Anthropic: a server tool's result whose use is gone", async () => {
    const orphan = new AIMessage({
      id: "a1",
      content: [
        { type: "web_search_tool_result", tool_use_id: "srvtoolu_9", content: [] },
        { type: "text", text: "Sunny." },
      ] as never,
    });
    await expect(
      chatModel("anthropic", emulator.url).invoke([question, orphan, new HumanMessage("And?")]),
    ).rejects.toThrow(
      "Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it.",
    );
  });

  it("Anthropic: the latest tool-use turn's thinking reordered by an app is rejected; the repair's own rewrite of it keeps its blocks and is accepted", async () => {
    const model = anthropicWithServerTools(emulator.url, SONNET, true);
    const [, turn] = await firstTurn(emulator, model, {
      thinking: "Check the forecast.",
      redacted: true,
      calls: [{ name: "lookup", args: { city: "Seoul" } }],
    });
    const call = (turn as AIMessage).tool_calls![0]!;
    const blocks = (turn as AIMessage).content as { type: string; id?: string }[];
    const result = (id: string) =>
      new ToolMessage({ id: "t1", content: "Seoul: 12°C", tool_call_id: id, name: "lookup" });
    emulator.script = () => ({ text: FINAL_ANSWER });

    const reordered = new AIMessage({ ...turn, content: [blocks[1], blocks[0], ...blocks.slice(2)] as never });
    await expect(model.invoke([question, reordered, result(call.id!)])).rejects.toThrow(
      "blocks in the latest assistant message cannot be modified",
    );
    // A call id some provider rejects (an OpenAI-compatible server's), renamed by the repair (pattern I).
    const dotted = "call.1";
    const renamed = new AIMessage({
      ...turn,
      content: blocks.map((b) => (b.type === "tool_use" ? { ...b, id: dotted } : b)) as never,
      tool_calls: [{ ...call, id: dotted }],
    });
    await expect(model.invoke([question, renamed, result(dotted)])).rejects.toThrow("String should match pattern");
    const { messages, repairs } = repairMessages([question, renamed, result(dotted)], { tail: "request" });
    expect(repairs.map((r) => r.code)).toEqual(["I", "I"]);
    expect((await model.invoke(messages as BaseMessage[])).text).toBe(FINAL_ANSWER);
  });

  it("Gemini: a thought signature changed", async () => {
    const gemini = gemini3Model(emulator.url);
    const [, reply] = await firstTurn(emulator, gemini.bindTools!(agentTools()), {
      thinking: "Check.",
      calls: [{ name: "lookup", args: { city: "Seoul" } }],
    });
    const call = (reply as AIMessage).tool_calls![0]!;
    const changed = new AIMessage({
      ...reply,
      additional_kwargs: { __gemini_function_call_thought_signatures__: { [call.id!]: "sig-forged" } },
    });
    const result = new ToolMessage({ content: "Seoul: 12°C", tool_call_id: call.id!, name: "lookup" });
    await expect(gemini.invoke([question, changed, result])).rejects.toThrow("Corrupted thought signature.");
  });

  it("Bedrock: a reasoning block's signature changed", async () => {
    const bedrock = chatModel("bedrock", emulator.url);
    const [, reply] = await firstTurn(emulator, bedrock, { thinking: "Check.", text: "Sunny." });
    const content = (reply as AIMessage).content as Record<string, unknown>[];
    // ChatBedrockConverse keeps reasoning as a `reasoning` block with its signature.
    const forged = content.map((b) => (b.type === "reasoning" ? { ...b, signature: "sig-forged" } : b));
    const changed = new AIMessage({ ...reply, content: forged as never });
    await expect(bedrock.invoke([question, changed, new HumanMessage("And?")])).rejects.toThrow(
      "Invalid `signature` in `reasoningContent` block",
    );
  });

  it("Responses: an item the API kept, replayed without the reasoning item it followed", async () => {
    const responses = responsesModel(emulator.url);
    const [, reply] = await firstTurn(emulator, responses, { thinking: "Check.", text: "Sunny." });
    const output = (reply as AIMessage).response_metadata.output as { type: string }[];
    const dropped = new AIMessage({
      ...reply,
      response_metadata: { ...reply!.response_metadata, output: output.filter((item) => item.type !== "reasoning") },
    });
    await expect(responses.invoke([question, dropped, new HumanMessage("And?")])).rejects.toThrow(
      "was provided without its required 'reasoning' item",
    );
  });
});

/**
 * A fallback inside the run: the primary model is down, modelFallbackMiddleware calls the fallback model with the
 * primary's signed thinking in the history. The sanitizing middleware, after it, sees the model each try goes to.
 */
describe("a model fallback inside a run", () => {
  it("the fallback model rejects the primary's thinking raw, and takes the request through the middleware", async () => {
    const opus = "claude-opus-4-1-20250805";
    const [question, reply] = await firstTurn(emulator, anthropicWithServerTools(emulator.url, opus, true), {
      thinking: "Checking the forecast.",
      text: "Sunny.",
    });
    // The primary, unreachable now (a closed loopback port), and the fallback on the emulator.
    const down = new ChatAnthropic({ model: opus, apiKey: "k", anthropicApiUrl: "http://127.0.0.1:1", maxRetries: 0 });
    const agent = (sanitized: boolean) =>
      createAgent({
        model: down,
        tools: [],
        middleware: [
          modelFallbackMiddleware(chatModel("anthropic", emulator.url)),
          ...(sanitized ? [sanitizeMessagesMiddleware()] : []),
        ],
      });
    const messages = [question!, reply!, new HumanMessage("And tomorrow?")];
    await expect(agent(false).invoke({ messages })).rejects.toThrow("Invalid `signature` in `thinking` block");
    const answered = await agent(true).invoke({ messages });
    expect(answered.messages.at(-1)?.text).toBe(FINAL_ANSWER);
  });
});
