// Source 004 (streaming design record): turns cancelled while streaming, in every stream mode and through
// streamEvents v2, by AbortSignal and by the consumer dropping the stream mid-token.
import { HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver, StreamMode } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { rejectingProviders } from "../support/oracle/provider-rejections.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel } from "../support/graphs/scenarios.js";
import { ProviderRejection } from "../support/graphs/strict-chat-model.js";

const MODES: StreamMode[][] = [
  ["values"],
  ["updates"],
  ["messages"],
  ["custom"],
  ["values", "messages"],
  ["updates", "messages", "custom"],
];
const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };

/** Streams the first turn and cancels it by AbortSignal on the LLM's second token. */
async function streamAndAbort(checkpointer: BaseCheckpointSaver, thread: string, streamMode: StreamMode[]) {
  const controller = new AbortController();
  const model = agentModel("openai", (index, call) => call === 0 && index === 1 && controller.abort());
  const graph = reactGraph({ model, tools }).compile(checkpointer);
  const seen: unknown[] = [];
  // The abort can surface from stream() itself (nothing streamed yet) or from the iteration.
  await expect(
    (async () => {
      const stream = await graph.stream(
        { messages: [new HumanMessage(FIRST_QUESTION)] },
        { configurable: { thread_id: thread }, streamMode, signal: controller.signal, durability: "sync" },
      );
      for await (const chunk of stream) seen.push(chunk);
    })(),
  ).rejects.toThrow("This operation was aborted");
  return seen;
}

/** Streams the next user turn to the end with a strict Bedrock-style model (it rejects two user turns in a row). */
async function streamNextTurn(checkpointer: BaseCheckpointSaver, thread: string, streamMode: StreamMode[]) {
  const model = agentModel("bedrock");
  const graph = reactGraph({ model, tools }).compile(checkpointer);
  const chunks: unknown[] = [];
  for await (const chunk of await graph.stream(
    { messages: [new HumanMessage("And tomorrow?")] },
    { configurable: { thread_id: thread }, streamMode },
  ))
    chunks.push(chunk);
  return { chunks, state: await graph.getState({ configurable: { thread_id: thread } }), model };
}

/** The (node, step) metadata of every streamed token. */
async function tokenMetadata(checkpointer: BaseCheckpointSaver, thread: string) {
  const graph = reactGraph({ model: agentModel("anthropic"), tools }).compile(checkpointer);
  const out: Array<[unknown, unknown]> = [];
  for await (const [, metadata] of await graph.stream(
    { messages: [new HumanMessage(FIRST_QUESTION)] },
    { configurable: { thread_id: thread }, streamMode: "messages" },
  )) {
    out.push([metadata.langgraph_node, metadata.langgraph_step]);
  }
  return out;
}

for (const factory of saverFactories) {
  describe(`streaming on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    describe.each(MODES.map((m) => [m.join("+"), m] as const))("streamMode %s", (_, streamMode) => {
      it("cancelled by AbortSignal mid-token: the raw saver's next turn fails, the sanitized one streams to the end", async () => {
        const raw = await open();
        await streamAndAbort(raw, "s", streamMode);
        await expect(streamNextTurn(raw, "s", streamMode)).rejects.toBeInstanceOf(ProviderRejection);

        const sanitized = new SanitizingCheckpointer(await open());
        await streamAndAbort(sanitized, "s", streamMode);
        const { chunks, state, model } = await streamNextTurn(sanitized, "s", streamMode);
        expect(model.rejections).toEqual([]);
        expect(chunks.length).toBeGreaterThan(0);
        expect(state.values.messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
        expect(rejectingProviders(state.values.messages)).toEqual({});
      });
    });

    it("cancelled by the consumer dropping the stream after the first token", async () => {
      const checkpointer = new SanitizingCheckpointer(await open());
      const graph = reactGraph({ model: agentModel("openai"), tools }).compile(checkpointer);
      const tokens: string[] = [];
      const stream = await graph.stream(
        { messages: [new HumanMessage(FIRST_QUESTION)] },
        { configurable: { thread_id: "drop" }, streamMode: "messages", durability: "sync" },
      );
      for await (const [chunk] of stream) {
        tokens.push(String(chunk.content));
        break;
      }
      expect(tokens).toEqual(["Let "]);
      const { state, model } = await streamNextTurn(checkpointer, "drop", ["messages"]);
      expect(model.rejections).toEqual([]);
      expect(state.values.messages.map((m: { type: string }) => m.type)).toEqual(["human", "ai", "human", "ai"]);
    });

    it("cancelled through streamEvents v2 mid-token, then the next turn's events stream to the end", async () => {
      const checkpointer = new SanitizingCheckpointer(await open());
      const graph = reactGraph({ model: agentModel("openai"), tools }).compile(checkpointer);
      const config = { configurable: { thread_id: "events" }, version: "v2" as const, durability: "sync" as const };
      for await (const event of graph.streamEvents({ messages: [new HumanMessage(FIRST_QUESTION)] }, config)) {
        if (event.event === "on_chat_model_stream") break;
      }
      const next = reactGraph({ model: agentModel("mistral"), tools }).compile(checkpointer);
      const names: string[] = [];
      for await (const event of next.streamEvents(
        { messages: [new HumanMessage("And tomorrow?")] },
        { configurable: { thread_id: "events" }, version: "v2" },
      ))
        names.push(event.event);
      expect(names).toContain("on_chat_model_stream");
      expect(names.at(-1)).toBe("on_chain_end");
      const state = await next.getState({ configurable: { thread_id: "events" } });
      expect(state.values.messages.at(-1)).toMatchObject({ content: "Happy to help with that." });
    });

    it("leaves stream metadata (langgraph_node, langgraph_step) exactly as on the raw saver", async () => {
      const raw = await tokenMetadata(await open(), "meta");
      const sanitized = await tokenMetadata(new SanitizingCheckpointer(await open()), "meta");
      expect(sanitized).toEqual(raw);
      // Tokens of the first LLM call (step 1), the tool results (step 2) and the answer (step 3).
      expect([...new Set(sanitized.map(([node, step]) => `${node}@${step}`))]).toEqual([
        "agent@1",
        "tools@2",
        "agent@3",
      ]);
    });
  });
}
