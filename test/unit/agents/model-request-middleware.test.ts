// sanitizeMessagesMiddleware on createAgent: what another middleware breaks inside a run (a trim that cuts a
// tool pair, a summary that leaves two user turns in a row) is repaired in the model request, never in state.
// No checkpointer read happens between those model calls, so MemorySaver is enough here.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { MiddlewareError, summarizationMiddleware, type AgentMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { InvalidOptionError, SanitizingCheckpointer, isSyntheticMessage } from "../../../src/index.js";
import { sanitizeMessagesMiddleware, type ModelRequestRepairEvent } from "../../../src/middleware/index.js";
import { buildAgent, keepFirstAndLastThree, threadConfig } from "../../support/graphs/agents.js";
import { comparable } from "../../support/comparisons/compare.js";
import { rejectingProviders, WIRE_PROFILES, type ProviderProfile } from "../../support/oracle/provider-rejections.js";
import { FIRST_QUESTION, agentModel } from "../../support/graphs/scenarios.js";
import { StrictChatModel } from "../../support/graphs/strict-chat-model.js";
import { thrownBy } from "../../support/thrown.js";

/** Summarizes once the history reaches six messages, keeping only the newest: the summary is a HumanMessage. */
const summarizeToLast = () =>
  summarizationMiddleware({
    model: new StrictChatModel({
      profile: "openai",
      script: () => ({ content: "The user checked the weather in Paris and Seoul." }),
    }),
    trigger: { messages: 6 },
    keep: { messages: 1 },
  });

/** Two turns on a fresh thread: the first question (two tool calls), then a follow-up. */
async function twoTurns(
  middleware: AgentMiddleware[],
  configurable: Record<string, unknown> = {},
  profile: ProviderProfile = "bedrock",
) {
  const model = agentModel(profile);
  const agent = buildAgent("createAgent", { model, checkpointer: new MemorySaver(), middleware });
  const config = threadConfig("t", configurable);
  await agent.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
  const run = agent.invoke({ messages: [new HumanMessage("Thanks, and tomorrow?")] }, config);
  const state = async () => (await agent.graph.getState(config)).values.messages;
  return { model, run, state };
}

describe("sanitizeMessagesMiddleware", () => {
  it("a trim that cuts a tool pair: rejected without it, accepted with it, state as if nothing was trimmed", async () => {
    const broken = await twoTurns([keepFirstAndLastThree]);
    await expect(broken.run).rejects.toThrow("bedrock 400");
    expect(Object.keys(rejectingProviders(broken.model.seen.at(-1)!))).toEqual(WIRE_PROFILES);

    const events: ModelRequestRepairEvent[] = [];
    const fixed = await twoTurns([
      keepFirstAndLastThree,
      sanitizeMessagesMiddleware({ onRepair: (e) => events.push(e) }),
    ]);
    await fixed.run;
    expect(fixed.model.rejections).toEqual([]);
    const sent = fixed.model.seen.at(-1)!;
    expect(sent.map((m) => m.type)).toEqual(["human", "ai", "human"]);
    expect(rejectingProviders(sent)).toEqual({});
    expect(events).toEqual([
      expect.objectContaining({
        operation: "wrapModelCall",
        threadId: "t",
        tail: "request",
        repairs: [expect.objectContaining({ code: "D", kind: "orphan-tool-result", action: "removed" })],
      }),
    ]);

    const untouched = await twoTurns([]);
    await untouched.run;
    expect(comparable(await fixed.state())).toEqual(comparable(await untouched.state()));
  });

  it("a summary followed by the kept HumanMessage: two user turns in a row, bridged in the request only", async () => {
    const broken = await twoTurns([summarizeToLast()]);
    await expect(broken.run).rejects.toThrow("bedrock 400");
    expect(Object.keys(rejectingProviders(broken.model.seen.at(-1)!))).toEqual(["bedrock", "gemini"]);

    const fixed = await twoTurns([summarizeToLast(), sanitizeMessagesMiddleware()]);
    await fixed.run;
    const state = await fixed.state();
    const sent = fixed.model.seen.at(-1)!;
    expect(sent.map((m) => (isSyntheticMessage(m) ? `${m.type}:${m.id}` : m.type))).toEqual([
      "human",
      `ai:sanitizer-reply-${state[0]!.id}`,
      "human",
    ]);
    expect(rejectingProviders(sent)).toEqual({});
    expect(state.map((m) => m.type)).toEqual(["human", "human", "ai"]);
    expect(state.some(isSyntheticMessage)).toBe(false);
  });

  it("applies the rules of the provider it calls: two user turns in a row go to OpenAI as they are", async () => {
    const events: ModelRequestRepairEvent[] = [];
    const onRepair = (e: ModelRequestRepairEvent) => events.push(e);
    const openai = await twoTurns([summarizeToLast(), sanitizeMessagesMiddleware({ onRepair })], {}, "openai");
    await openai.run;
    expect(openai.model.seen.at(-1)!.map((m) => m.type)).toEqual(["human", "human"]);
    expect(events).toEqual([]);

    // Named in the options, a provider's rules apply whatever the model.
    const named = await twoTurns([summarizeToLast(), sanitizeMessagesMiddleware({ onRepair, provider: "gemini" })]);
    await named.run;
    expect(named.model.seen.at(-1)!.map((m) => m.type)).toEqual(["human", "ai", "human"]);
    // The fake model's calls carry no Gemini signature, as another model's would not: the one of the tool loop's
    // current turn gets Gemini's documented skip (T).
    expect(events.map((e) => [e.provider, e.repairs.map((r) => r.code)])).toEqual([
      ["gemini", ["T"]],
      ["gemini", ["A"]],
    ]);
  });

  it('sends a clean request as it is, and is off for a call with configurable.tailPolicy "off"', async () => {
    const events: unknown[] = [];
    const clean = await twoTurns([sanitizeMessagesMiddleware({ onRepair: (e) => events.push(e) })]);
    await clean.run;
    expect(events).toEqual([]);
    expect(clean.model.seen.at(-1)!.map((m) => m.id)).toEqual((await clean.state()).slice(0, -1).map((m) => m.id));

    const off = await twoTurns([keepFirstAndLastThree, sanitizeMessagesMiddleware()], { tailPolicy: "off" });
    await expect(off.run).rejects.toThrow("bedrock 400");
  });

  it("lets a provider error through as langchain wraps it for every wrapModelCall middleware", async () => {
    const off = await twoTurns([keepFirstAndLastThree, sanitizeMessagesMiddleware()], { tailPolicy: "off" });
    const error = await off.run.catch((e: unknown) => e);
    // MiddlewareError keeps the name and message; the model's own error is at the end of the cause chain.
    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error).toMatchObject({ name: "ProviderRejection", message: off.model.rejections[0]!.message });
    let cause = error as { cause?: unknown };
    while (cause.cause !== undefined) cause = cause.cause as { cause?: unknown };
    expect(cause).toBe(off.model.rejections[0]);
  });

  it("uses the checkpointer's marker texts and bridge role", async () => {
    const fixed = await twoTurns([
      summarizeToLast(),
      sanitizeMessagesMiddleware({ markers: "ko", bridgeRole: "system" }),
    ]);
    await fixed.run.catch(() => {});
    const marker = fixed.model.seen.at(-1)!.find(isSyntheticMessage) as BaseMessage;
    expect([marker.type, marker.content]).toEqual(["system", "[직전 turn 응답 중단됨, 함께 종합해 답하라]"]);
  });

  it.each([
    [{ markers: "fr" }],
    [{ markers: { missingReply: "" } }],
    [{ bridgeRole: "user" }],
    [{ onRepair: 42 }],
    [{ provider: "azure" }],
  ])("validates %j when it is built, with the checkpointer's wording", (options) => {
    const fromCheckpointer = thrownBy(() => new SanitizingCheckpointer(new MemorySaver(), options as never));
    expect(fromCheckpointer).toBeInstanceOf(InvalidOptionError);
    expect(thrownBy(() => sanitizeMessagesMiddleware(options as never))).toEqual(fromCheckpointer);
  });

  it("fails the model call of a run whose configurable.tailPolicy it does not take", async () => {
    const model = agentModel("openai");
    const middleware = [sanitizeMessagesMiddleware()];
    const agent = buildAgent("createAgent", { model, checkpointer: new MemorySaver(), middleware });
    const run = agent.invoke(
      { messages: [new HumanMessage(FIRST_QUESTION)] },
      threadConfig("t", { tailPolicy: "fix" }),
    );
    const error = await run.catch((e: unknown) => e);
    // langchain wraps a middleware's error in a MiddlewareError that keeps its name and message.
    expect(error).toMatchObject({
      name: "InvalidOptionError",
      message: expect.stringMatching(/^configurable\.tailPolicy /),
    });
    let cause = error as { cause?: unknown };
    while (cause.cause !== undefined) cause = cause.cause as { cause?: unknown };
    expect(cause).toBeInstanceOf(InvalidOptionError);
    expect(model.seen).toEqual([]);
  });
});
