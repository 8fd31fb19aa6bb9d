// A subgraph compiled with a static breakpoint pauses the run inside the subgraph's namespace: its parent's
// checkpoint shows only a pending task. Through the plain checkpointer given the breakpoints as options, the paused
// thread reads as stored and `invoke(null)` resumes exactly as on the raw saver (LangChain's own createAgent tests
// resume such a subgraph this way).
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { sanitizeGraph, SanitizingCheckpointer } from "../../src/index.js";
import { saverFactories, saverPerTest } from "../support/savers/savers.js";

type Breakpoints = { interruptBefore?: ("a" | "b")[]; interruptAfter?: ("a" | "b")[] };

/** What the test runs and reads of a graph. */
interface Graph {
  invoke(input: unknown, config: Record<string, unknown>): Promise<{ messages: BaseMessage[] }>;
  getState(config: Record<string, unknown>): Promise<{ values: { messages: BaseMessage[] } }>;
}

/** A parent whose one node is a subgraph a → b, compiled with `breakpoints`; `nested` mounts it one level deeper. */
function parentGraph(checkpointer: BaseCheckpointSaver, breakpoints: Breakpoints, nested: boolean): Graph {
  const subgraph = new StateGraph(MessagesAnnotation)
    .addNode("a", () => ({ messages: [new AIMessage({ id: "from-a", content: "Step a done." })] }))
    .addNode("b", () => ({ messages: [new AIMessage({ id: "from-b", content: "Step b done." })] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile(breakpoints);
  const mount = (node: typeof subgraph) =>
    new StateGraph(MessagesAnnotation).addNode("sub", node).addEdge(START, "sub").addEdge("sub", END);
  // Nested: the parent's subgraph is a graph whose one node is the paused subgraph.
  const mounted = nested ? (mount(subgraph).compile() as unknown as typeof subgraph) : subgraph;
  return mount(mounted).compile({ checkpointer }) as unknown as Graph;
}

const config = { configurable: { thread_id: "t" } };

/** Each message as its class, id and text. */
const listed = (messages: BaseMessage[]) => messages.map((m) => `${m.type} ${m.id}: ${m.text}`);

/** The question, the pause (what the thread reads as there), then the approval with `invoke(null)`. */
async function pauseAndResume(graph: Graph) {
  await graph.invoke({ messages: [new HumanMessage({ id: "h1", content: "Run both steps." })] }, config);
  const paused = listed((await graph.getState(config)).values.messages);
  const resumed = await graph.invoke(null, config);
  return { paused, resumed: listed(resumed.messages) };
}

const CASES: Record<string, Breakpoints> = {
  "interruptBefore: ['b']": { interruptBefore: ["b"] },
  "interruptAfter: ['a']": { interruptAfter: ["a"] },
};

for (const factory of saverFactories) {
  describe(`a subgraph paused at a compile-time breakpoint, on ${factory.name}`, () => {
    const open = saverPerTest(factory);

    describe.each([false, true])("nested one level deeper: %s", (nested) => {
      it.each(Object.entries(CASES))(
        "%s: through the plain checkpointer given the breakpoints, it reads as stored and resumes as raw",
        async (_, breakpoints) => {
          const raw = await pauseAndResume(parentGraph(await open(), breakpoints, nested));
          // The pause is real: the subgraph stopped before b, and invoke(null) ran b.
          expect(raw.resumed).toEqual([
            "human h1: Run both steps.",
            "ai from-a: Step a done.",
            "ai from-b: Step b done.",
          ]);

          const sanitized = await pauseAndResume(
            parentGraph(new SanitizingCheckpointer(await open(), breakpoints), breakpoints, nested),
          );
          expect(sanitized).toEqual(raw);
        },
      );

      it("through sanitizeGraph, which sees that invoke(null) resumes, with no option", async () => {
        const breakpoints = CASES["interruptBefore: ['b']"]!;
        const raw = await pauseAndResume(parentGraph(await open(), breakpoints, nested));
        const graph = parentGraph(await open(), breakpoints, nested);
        const sanitized = await pauseAndResume(sanitizeGraph(graph as never) as unknown as Graph);
        expect(sanitized).toEqual(raw);
      });
    });
  });
}
