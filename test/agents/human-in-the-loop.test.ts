// createAgent's humanInTheLoopMiddleware pauses after the model, before tools run. Through the sanitizer a
// resume behaves exactly as on the raw saver; a new message instead of a resume needs configurable.tailPolicy
// "repair"; a rejection that leaves an auto-approved sibling unanswered needs the model-call middleware.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import { humanInTheLoopMiddleware, type AgentMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, isSyntheticMessage } from "../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../src/middleware/index.js";
import { buildAgent, threadConfig } from "../support/graphs/agents.js";
import { comparable, rawAndSanitized } from "../support/comparisons/compare.js";
import { rejectingProviders, WIRE_PROFILES } from "../support/oracle/provider-rejections.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";
import { FIRST_QUESTION, agentModel } from "../support/graphs/scenarios.js";
import { StrictChatModel } from "../support/graphs/strict-chat-model.js";

/** Both calls of the first question (search Paris, lookup Seoul) need approval unless `only` names one tool. */
const approval = (only?: "search") =>
  humanInTheLoopMiddleware({ interruptOn: only ? { [only]: true } : { search: true, lookup: true } });

const approve = { type: "approve" };
const reject = { type: "reject", message: "Not that one." };
const editSearch = { type: "edit", editedAction: { name: "search", args: { city: "Lyon" } } };

/** Asks the first question on a fresh thread and returns the agent, paused for approval. */
async function pausedAgent(
  checkpointer: BaseCheckpointSaver,
  only?: "search",
  middleware: AgentMiddleware[] = [approval(only)],
) {
  const model = agentModel("bedrock");
  const agent = buildAgent("createAgent", { model, checkpointer, middleware });
  const paused = await agent.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, threadConfig("hitl"));
  return { agent, model, paused };
}

const toolResults = (messages: BaseMessage[]) => messages.filter((m) => m.type === "tool").map((m) => m.content);

/**
 * A model that asks to search for every user turn and answers the search, and gives its call the same reply id
 * each time, as LangChain's own FakeToolCallingModel does (its ids are its script's index): its reply to a new
 * message sent over the pending approval replaces the guarded reply in place, so the new message follows the call
 * the new `interrupt()` guards.
 */
function sameIdModel() {
  return new StrictChatModel({
    profile: "bedrock",
    script: (messages) =>
      messages.at(-1)!.type === "tool"
        ? { content: "Paris is 15°C." }
        : {
            id: "search-reply",
            content: "Let me check. ",
            toolCalls: [{ id: "call_search", name: "search", args: { city: "Paris" } }],
          },
  });
}

/** Approval pending, a new message, then the approval: what the thread showed paused, the end, the searches. */
async function approveAfterNewMessage(checkpointer: BaseCheckpointSaver) {
  const config = threadConfig("hitl-same-id");
  const searched: unknown[] = [];
  const model = sameIdModel();
  const agent = buildAgent("createAgent", {
    model,
    checkpointer,
    tools: { search: (args) => (searched.push(args.city), `${String(args.city)}: 15°C`) },
    // The model takes the new message after the unanswered call through the middleware (the request only).
    middleware: [approval("search"), sanitizeMessagesMiddleware()],
  });
  await agent.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
  await agent.invoke({ messages: [new HumanMessage("Only Paris, please.")] }, config);
  const paused = (await agent.graph.getState(config)).values.messages;
  const final = await agent.invoke(new Command({ resume: { decisions: [approve] } }), config);
  return { paused, final: final.messages, searched, rejections: model.rejections };
}

for (const factory of saverFactories) {
  describe(`humanInTheLoopMiddleware on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    it.each([
      ["approve both", [approve, approve], ["Paris: 15°C", "Seoul: 12°C, clear"]],
      ["edit one, approve the other", [editSearch, approve], ["Lyon: 15°C", "Seoul: 12°C, clear"]],
      ["reject both", [reject, reject], ["Not that one.", "Not that one."]],
      // langchain drops the approved call from the AIMessage when any call of the batch is rejected.
      ["reject one of two parallel calls", [reject, approve], ["Not that one."]],
    ])("%s: the resume behaves exactly as on the raw saver", async (_, decisions, results) => {
      const run = async (checkpointer: BaseCheckpointSaver) => {
        const { agent, paused } = await pausedAgent(checkpointer);
        const pausedState = await agent.graph.getState(threadConfig("hitl"));
        const final = await agent.invoke(new Command({ resume: { decisions } }), threadConfig("hitl"));
        return { asked: paused.__interrupt__, pausedMessages: pausedState.values.messages, final: final.messages };
      };
      const { raw, sanitized } = await rawAndSanitized(open, run);
      expect(comparable(sanitized)).toEqual(comparable(raw));
      // While the approval is pending, the calls stay unanswered: no placeholder.
      expect(sanitized.pausedMessages.map((m) => m.type)).toEqual(["human", "ai"]);
      expect(toolResults(sanitized.final)).toEqual(results);
      expect(sanitized.final.some(isSyntheticMessage)).toBe(false);
      expect(rejectingProviders(sanitized.final)).toEqual({});
    });

    it("a new message instead of a resume: rejected raw and under the default policy, repaired on request", async () => {
      const next = new HumanMessage("Never mind, what time is it?");
      const raw = await pausedAgent(await open());
      await expect(raw.agent.invoke({ messages: [next] }, threadConfig("hitl"))).rejects.toThrow("bedrock 400");
      expect(Object.keys(rejectingProviders(raw.model.seen.at(-1)!))).toEqual(WIRE_PROFILES);

      // A pending interrupt means "a resume is expected", so the default policy keeps the tail as it is.
      const auto = await pausedAgent(new SanitizingCheckpointer(await open()));
      await expect(auto.agent.invoke({ messages: [next] }, threadConfig("hitl"))).rejects.toThrow("bedrock 400");

      const repaired = await pausedAgent(new SanitizingCheckpointer(await open()));
      const { messages } = await repaired.agent.invoke(
        { messages: [next] },
        threadConfig("hitl", { tailPolicy: "repair" }),
      );
      expect(repaired.model.rejections).toEqual([]);
      expect(messages.map((m) => [m.type, isSyntheticMessage(m)])).toEqual([
        ["human", false],
        ["ai", false],
        ["tool", true],
        ["tool", true],
        ["ai", true],
        ["human", false],
        ["ai", false],
      ]);
      expect(rejectingProviders(messages)).toEqual({});

      // With the middleware, the default policy is enough for the model call; the calls stay unanswered in
      // state until a later read repairs them (they are no longer in the tail).
      const closed = await pausedAgent(new SanitizingCheckpointer(await open()), undefined, [
        approval(),
        sanitizeMessagesMiddleware(),
      ]);
      const answered = await closed.agent.invoke({ messages: [next] }, threadConfig("hitl"));
      expect(closed.model.rejections).toEqual([]);
      expect(answered.messages.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
      const reread = (await closed.agent.graph.getState(threadConfig("hitl"))).values.messages;
      expect(reread.filter(isSyntheticMessage).map((m) => m.type)).toEqual(["tool", "tool", "ai"]);
      expect(rejectingProviders(reread)).toEqual({});
    });

    it("a new message over the pending approval that the model's reply (same id) puts before it: the approval runs the call as raw", async () => {
      const { raw, sanitized } = await rawAndSanitized(open, approveAfterNewMessage);
      expect(raw.searched).toEqual(["Paris"]);
      expect(comparable(sanitized)).toEqual(comparable(raw));
      expect(sanitized.rejections).toEqual([]);
      // Paused, the read shows the call the interrupt guards unanswered, the new message after it.
      expect(sanitized.paused.map((m) => m.type)).toEqual(["human", "ai", "human"]);
      expect(sanitized.paused.some(isSyntheticMessage)).toBe(false);
    });
  });
}

describe("humanInTheLoopMiddleware rejecting a call whose sibling needs no approval (MemorySaver)", () => {
  // The rejection jumps back to the model; the auto-approved sibling never runs and stays unanswered, so the
  // very next model call of the same run is broken. No checkpoint read happens in between.
  const resumeWithRejection = async (
    checkpointer: BaseCheckpointSaver,
    middleware: AgentMiddleware[] = [approval("search")],
  ) => {
    const { agent, model } = await pausedAgent(checkpointer, "search", middleware);
    const run = agent.invoke(new Command({ resume: { decisions: [reject] } }), threadConfig("hitl"));
    return { agent, model, run };
  };

  it("is rejected on the raw saver and through the checkpointer alone", async () => {
    for (const checkpointer of [new MemorySaver(), new SanitizingCheckpointer(new MemorySaver())]) {
      const { model, run } = await resumeWithRejection(checkpointer);
      await expect(run).rejects.toThrow("bedrock 400");
      expect(Object.keys(rejectingProviders(model.seen.at(-1)!))).toEqual(WIRE_PROFILES);
    }
  });

  it("is accepted with sanitizeMessagesMiddleware, which changes the request only", async () => {
    const { agent, model, run } = await resumeWithRejection(new MemorySaver(), [
      approval("search"),
      sanitizeMessagesMiddleware(),
    ]);
    const { messages } = await run;
    expect(model.rejections).toEqual([]);
    const sent = model.seen.at(-1)!;
    expect(sent.filter((m) => m.type === "tool").map((m) => [m.content, isSyntheticMessage(m)])).toEqual([
      ["[No result was recorded for this tool call.]", true],
      ["Not that one.", false],
    ]);
    expect(rejectingProviders(sent)).toEqual({});
    // State keeps the history as langchain wrote it, plus the model's reply.
    expect(messages.some(isSyntheticMessage)).toBe(false);
    expect((await agent.graph.getState(threadConfig("hitl"))).values.messages.map((m) => m.type)).toEqual([
      "human",
      "ai",
      "tool",
      "ai",
    ]);
  });
});
