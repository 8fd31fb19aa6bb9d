/**
 * One app process of a deployment with several: a graph on a shared store (a SQLite file, Postgres or Redis),
 * raw or through `sanitizeGraph`, driven one JSON command a line on stdin, answering one JSON line on stdout.
 * test/processes/two-processes.test.ts starts two (and kills and restarts them).
 *
 * Env: the store's (test/support/savers/stores.ts), and MODE (raw | sanitized).
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, interrupt } from "@langchain/langgraph";
import { createInterface } from "node:readline";
import { isSyntheticMessage, sanitizeGraph, SanitizingCheckpointer } from "../../src/index.js";
import { comparable } from "../support/comparisons/compare.js";
import { reactGraph, type ToolFn } from "../support/graphs/react-graph.js";
import { agentModel, FIRST_QUESTION, LOOKUP_RESULT } from "../support/graphs/scenarios.js";
import { openStore, type StoreEnv } from "../support/savers/stores.js";

/** The graphs of the app: no breakpoint of its own, one compiled before the tools, and a tool that asks first. */
export type GraphName = "plain" | "compiled-breakpoint" | "approval";

/** What the test sends. `thread` names the thread; every command answers once, when done. */
export type Command_ =
  | {
      op: "invoke";
      graph: GraphName;
      thread: string;
      input: "first" | "next" | null | { resume: string };
      interruptBefore?: string[];
    }
  /** Starts a turn and answers once its `search` tool works; the tool returns when `release` comes. */
  | { op: "start"; graph: GraphName; thread: string }
  | { op: "release" }
  | { op: "getState"; graph: GraphName; thread: string }
  /** Edits the city of the waiting `search` call, as LangGraph's human-in-the-loop guide shows. */
  | { op: "editCall"; graph: GraphName; thread: string; city: string }
  /** The stored messages, read from the saver itself. */
  | { op: "stored"; thread: string };

const { MODE } = process.env;
const saver = openStore(process.env as unknown as StoreEnv);
let entered: (() => void) | undefined;
let release: (() => void) | undefined;

const search: ToolFn = async ({ city }) => {
  if (entered) {
    const done = new Promise<void>((resolve) => (release = resolve));
    entered();
    entered = undefined;
    await done;
  }
  return `${String(city)}: 15°C`;
};
const ask: ToolFn = async ({ city }) => `${String(city)}: ${String(interrupt(`Look up ${String(city)}?`))}`;
const lookup: ToolFn = () => LOOKUP_RESULT;

function build(name: GraphName) {
  const tools = { search: name === "approval" ? ask : search, lookup };
  const builder = reactGraph({ model: agentModel("bedrock"), tools });
  const checkpointer = MODE === "raw" ? saver : new SanitizingCheckpointer(saver);
  const graph = builder.compile(checkpointer, name === "compiled-breakpoint" ? { interruptBefore: ["tools"] } : {});
  return MODE === "raw" ? graph : sanitizeGraph(graph);
}
const graphs = {
  plain: build("plain"),
  "compiled-breakpoint": build("compiled-breakpoint"),
  approval: build("approval"),
};

const config = (thread: string) => ({ configurable: { thread_id: thread }, durability: "sync" as const });
const inputOf = (input: Extract<Command_, { op: "invoke" }>["input"]) =>
  input === null
    ? null
    : typeof input === "object"
      ? new Command({ resume: input.resume })
      : { messages: [new HumanMessage(input === "first" ? FIRST_QUESTION : "And tomorrow?")] };

async function run(command: Command_): Promise<unknown> {
  switch (command.op) {
    case "invoke": {
      const { graph, thread, input, interruptBefore } = command;
      const output = await graphs[graph].invoke(inputOf(input) as never, {
        ...config(thread),
        ...(interruptBefore ? { interruptBefore: interruptBefore as never } : {}),
      });
      return comparable(output);
    }
    case "start": {
      const working = new Promise<void>((resolve) => (entered = resolve));
      void graphs[command.graph]
        .invoke(inputOf("first") as never, config(command.thread))
        .catch((error: Error) => console.error(`run on ${command.thread} failed: ${error.message}`));
      await working;
      return "working";
    }
    case "release":
      release?.();
      return "released";
    case "getState": {
      const state = await graphs[command.graph].getState(config(command.thread));
      return comparable({ values: state.values, next: state.next });
    }
    case "editCall": {
      const graph = graphs[command.graph];
      const { values } = await graph.getState(config(command.thread));
      const call = (values.messages as BaseMessage[]).filter((m) => m.type === "ai").at(-1) as AIMessage;
      const edited = new AIMessage({
        id: call.id,
        content: call.content,
        tool_calls: call.tool_calls!.map((c) => (c.name === "search" ? { ...c, args: { city: command.city } } : c)),
      });
      await graph.updateState(config(command.thread), { messages: [edited] }, "agent");
      return "edited";
    }
    case "stored": {
      const tuple = await saver.getTuple(config(command.thread));
      const messages = (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
      return { synthetic: messages.filter(isSyntheticMessage).length, messages: comparable(messages) };
    }
  }
}

// One command at a time, in order, except `release`, which must reach a turn that is still working.
let queue = Promise.resolve();
createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, ...command } = JSON.parse(line) as Command_ & { id: number };
  const answer = async () => {
    try {
      process.stdout.write(`${JSON.stringify({ id, ok: true, result: await run(command as Command_) })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ id, ok: false, error: String((error as Error).message) })}\n`);
    }
  };
  if (command.op === "release") void answer();
  else queue = queue.then(answer);
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
