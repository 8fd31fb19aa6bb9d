// Source 002 (the interrupt guide), each example rebuilt in TypeScript: results and final state through
// the sanitizer equal the raw saver's.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, Command, END, START, StateGraph, interrupt, type BaseCheckpointSaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { approvalAgent } from "../support/graphs/approval-agent.js";
import { comparable, rawAndSanitized } from "../support/comparisons/compare.js";
import { rejectingProviders } from "../support/oracle/provider-rejections.js";
import { MESSAGES_FIELDS, type MessagesField } from "../support/graphs/react-graph.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";

type Step = Record<string, unknown> & { __interrupt__?: { id: string; value: unknown }[] };

/** A model-free agent turn: the AI asks to send an email; the tool asks a human first. */
const emailAgent = (checkpointer: BaseCheckpointSaver, field: MessagesField) =>
  approvalAgent(field).compile({ checkpointer });

for (const factory of saverFactories) {
  describe(`interrupt guide on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    it("review and edit: pauses with the draft, resumes with the edited text", async () => {
      const State = Annotation.Root({ generatedText: Annotation<string> });
      const run = async (checkpointer: BaseCheckpointSaver) => {
        const graph = new StateGraph(State)
          .addNode("review", (state) => ({
            generatedText: interrupt({
              instruction: "Review and edit this content",
              content: state.generatedText,
            }) as string,
          }))
          .addEdge(START, "review")
          .addEdge("review", END)
          .compile({ checkpointer });
        const config = { configurable: { thread_id: "review-42" } };
        const initial = (await graph.invoke({ generatedText: "Initial draft" }, config)) as Step;
        const final = await graph.invoke(new Command({ resume: "Improved draft after review" }), config);
        return { initial, final };
      };
      const { raw, sanitized } = await rawAndSanitized(open, run);
      expect(comparable(sanitized)).toEqual(comparable(raw));
      expect(sanitized.initial.__interrupt__!.map((i) => i.value)).toEqual([
        { instruction: "Review and edit this content", content: "Initial draft" },
      ]);
      expect(sanitized.final).toEqual({ generatedText: "Improved draft after review" });
    });

    it.each(
      MESSAGES_FIELDS.flatMap((field) => [
        { name: "approve", answer: { action: "approve" }, toolResult: "Email sent to bob@example.com", field },
        {
          name: "approve with edited arguments",
          answer: { action: "approve", to: "alice@example.com" },
          toolResult: "Email sent to alice@example.com",
          field,
        },
        { name: "reject", answer: { action: "reject" }, toolResult: "Email cancelled by user", field },
      ]),
    )("a tool that asks for approval: $name (conversation in $field)", async ({ answer, toolResult, field }) => {
      const run = async (checkpointer: BaseCheckpointSaver) => {
        const graph = emailAgent(checkpointer, field);
        const config = { configurable: { thread_id: "email" } };
        const paused = (await graph.invoke({ messages: [new HumanMessage("Email Bob about lunch")] }, config)) as Step;
        const pausedState = await graph.getState(config);
        const final = await graph.invoke(new Command({ resume: answer }), config);
        return {
          paused: paused.__interrupt__!.map((i) => i.value),
          pausedMessages: pausedState.values.messages,
          final,
        };
      };
      const { raw, sanitized } = await rawAndSanitized(open, run);
      expect(comparable(sanitized)).toEqual(comparable(raw));
      // The paused state keeps the unanswered call: no placeholder while the approval is pending.
      expect((sanitized.pausedMessages as BaseMessage[]).map((m) => m.type)).toEqual(["human", "ai"]);
      const messages = sanitized.final.messages as BaseMessage[];
      expect(messages.filter((m) => m.type === "tool").map((m) => m.content)).toEqual([toolResult]);
      expect(rejectingProviders(messages)).toEqual({});
    });

    it("a validation loop: several interrupt() calls in one node until the answer is valid", async () => {
      const State = Annotation.Root({ age: Annotation<number> });
      const run = async (checkpointer: BaseCheckpointSaver) => {
        const graph = new StateGraph(State)
          .addNode("collectAge", () => {
            let prompt = "What is your age?";
            for (;;) {
              const answer = interrupt(prompt);
              if (typeof answer === "number" && answer > 0) return { age: answer };
              prompt = `'${String(answer)}' is not a valid age. Please enter a positive number.`;
            }
          })
          .addEdge(START, "collectAge")
          .addEdge("collectAge", END)
          .compile({ checkpointer });
        const config = { configurable: { thread_id: "form-1" } };
        const prompts: unknown[] = [];
        let result = (await graph.invoke({ age: 0 }, config)) as Step;
        for (const answer of ["thirty", -5, 30]) {
          prompts.push(result.__interrupt__?.[0]?.value);
          result = (await graph.invoke(new Command({ resume: answer }), config)) as Step;
        }
        return { prompts, result };
      };
      const { raw, sanitized } = await rawAndSanitized(open, run);
      expect(comparable(sanitized)).toEqual(comparable(raw));
      expect(sanitized.prompts).toEqual([
        "What is your age?",
        "'thirty' is not a valid age. Please enter a positive number.",
        "'-5' is not a valid age. Please enter a positive number.",
      ]);
      expect(sanitized.result).toEqual({ age: 30 });
    });

    it("parallel interrupts, resumed together by interrupt id", async () => {
      const State = Annotation.Root({
        answers: Annotation<string[]>({ reducer: (a, b) => [...a, ...b].sort(), default: () => [] }),
      });
      const run = async (checkpointer: BaseCheckpointSaver) => {
        const graph = new StateGraph(State)
          .addNode("askLegal", () => ({ answers: [`legal: ${interrupt("Legal review?") as string}`] }))
          .addNode("askFinance", () => ({ answers: [`finance: ${interrupt("Finance review?") as string}`] }))
          .addEdge(START, "askLegal")
          .addEdge(START, "askFinance")
          .addEdge("askLegal", END)
          .addEdge("askFinance", END)
          .compile({ checkpointer });
        const config = { configurable: { thread_id: "parallel" } };
        const paused = (await graph.invoke({ answers: [] }, config)) as Step;
        const resume = Object.fromEntries(
          paused.__interrupt__!.map((i) => [i.id, i.value === "Legal review?" ? "ok" : "approved"]),
        );
        const final = await graph.invoke(new Command({ resume }), config);
        return { asked: paused.__interrupt__!.map((i) => i.value).sort(), final };
      };
      const { raw, sanitized } = await rawAndSanitized(open, run);
      expect(comparable(sanitized)).toEqual(comparable(raw));
      expect(sanitized.asked).toEqual(["Finance review?", "Legal review?"]);
      expect(sanitized.final).toEqual({ answers: ["finance: approved", "legal: ok"] });
    });
  });
}
