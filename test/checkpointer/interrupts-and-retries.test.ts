// Human-in-the-loop and retries behave exactly as on the raw saver.
import { Command, type BaseCheckpointSaver } from "@langchain/langgraph";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../src/index.js";
import { rejectingProviders } from "../support/oracle/provider-rejections.js";
import { MESSAGES_FIELDS, reactGraph, type MessagesField } from "../support/graphs/react-graph.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { FIRST_QUESTION, agentModel, cancelFirstTurn } from "../support/graphs/scenarios.js";

/** What a run's history says, without the random ids LangGraph gives messages. */
const transcript = (messages: BaseMessage[]) =>
  messages.map((m) => [m.type, m.content, (m as { tool_call_id?: string }).tool_call_id ?? null]);

/** A graph whose `search` tool asks a human for approval through interrupt(). */
function approvalGraph(checkpointer: BaseCheckpointSaver, field: MessagesField) {
  return reactGraph({
    model: agentModel("anthropic"),
    field,
    tools: {
      search: (args) => {
        const answer = interrupt({ action: "search", args }) as { approve: boolean };
        return answer.approve ? "Paris: 15°C" : "The user declined this search.";
      },
      lookup: () => "Seoul: 12°C",
    },
  }).compile(checkpointer);
}

async function approveRun(checkpointer: BaseCheckpointSaver, thread: string, field: MessagesField) {
  const config = { configurable: { thread_id: thread } };
  const graph = approvalGraph(checkpointer, field);
  const paused = await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
  const state = await graph.getState(config);
  const resumed = await graph.invoke(new Command({ resume: { approve: true } }), config);
  return { paused, state, resumed };
}

for (const factory of saverFactories) {
  describe.each(MESSAGES_FIELDS)(`interrupts and retries on ${factory.name}, conversation in %s`, (field) => {
    const open = saverPerTest(factory);

    it("pauses at interrupt() and resumes with Command({ resume }) exactly as the raw saver does", async () => {
      const raw = await approveRun(await open(), "hitl", field);
      const sanitized = await approveRun(new SanitizingCheckpointer(await open()), "hitl", field);

      // Interrupt ids derive from checkpoint ids, which are random per run: compare what was asked.
      const asked = (r: typeof raw) =>
        (r.paused as { __interrupt__?: { value: unknown }[] }).__interrupt__?.map((i) => i.value);
      expect(asked(sanitized)).toEqual(asked(raw));
      expect(asked(sanitized)).toEqual([{ action: "search", args: { city: "Paris" } }]);
      expect(sanitized.state.tasks.map((t) => t.interrupts.length)).toEqual([1]);
      expect(transcript(sanitized.state.values.messages)).toEqual(transcript(raw.state.values.messages));
      expect(transcript(sanitized.resumed.messages)).toEqual(transcript(raw.resumed.messages));
      const results = sanitized.resumed.messages.filter((m: BaseMessage) => m.type === "tool");
      expect(results.map((m: BaseMessage) => m.content)).toEqual(["Paris: 15°C", "Seoul: 12°C"]);
      expect(rejectingProviders(sanitized.resumed.messages)).toEqual({});
    });

    it("repairs a pending approval the user answered with a new message, when the app asks for it", async () => {
      const checkpointer = new SanitizingCheckpointer(await open());
      const graph = approvalGraph(checkpointer, field);
      const config = { configurable: { thread_id: "hitl-new-message" } };
      await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);

      const next = { configurable: { ...config.configurable, tailPolicy: "repair" } };
      const state = await graph.invoke({ messages: [new HumanMessage("Never mind, what's new?")] }, next);
      expect(state.messages.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
      expect(rejectingProviders(state.messages)).toEqual({});
    });

    it("retries the cancelled tools with invoke(null) and sanitizer: 'preserve', one result per call", async () => {
      const checkpointer = new SanitizingCheckpointer(await open());
      await cancelFirstTurn(checkpointer, "during-tools", "retry", { field });
      const tools = { search: () => "Paris: 15°C", lookup: () => "Seoul: 12°C" };
      const graph = reactGraph({ model: agentModel("anthropic"), tools, field }).compile(checkpointer);

      const state = await graph.invoke(null, { configurable: { thread_id: "retry", tailPolicy: "preserve" } });
      expect(transcript(state.messages)).toEqual([
        ["human", FIRST_QUESTION, null],
        ["ai", "Let me check both cities. ", null],
        ["tool", "Paris: 15°C", "call_0_0"],
        ["tool", "Seoul: 12°C", "call_0_1"],
        ["ai", "Paris is 15°C, Seoul is 12°C.", null],
      ]);
    });

    it("retries a run that stopped at a static breakpoint with invoke(null) and sanitizer: 'preserve'", async () => {
      const checkpointer = new SanitizingCheckpointer(await open());
      const tools = { search: () => "Paris: 15°C", lookup: () => "Seoul: 12°C" };
      const graph = reactGraph({ model: agentModel("openai"), tools, field });
      const app = graph.compile(checkpointer, { interruptBefore: ["tools"] });
      const config = { configurable: { thread_id: "breakpoint" } };
      await app.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
      const state = await app.invoke(null, { configurable: { ...config.configurable, tailPolicy: "preserve" } });
      expect(state.messages.filter((m: BaseMessage) => m.type === "tool")).toHaveLength(2);
      expect(rejectingProviders(state.messages)).toEqual({});
    });
  });
}
