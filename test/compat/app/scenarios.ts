/**
 * The compatibility scenarios, run inside an app that installed the packed package next to pinned
 * LangGraph.js versions (test/compat/langgraph-matrix.test.ts). esbuild bundles this file with the strict
 * model; every package stays external, so the app's own copies are loaded. It uses only what LangGraph.js 1.0
 * has, and prints one JSON object: for each backend and scenario, `{ ok, detail }`.
 *
 *   node scenarios.mjs            COMPAT_BACKENDS=memory,redis,postgres REDIS_URL=… POSTGRES_URL=…
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  Command,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  Send,
  StateGraph,
  interrupt,
  type BaseCheckpointSaver,
} from "@langchain/langgraph";
import { Redis } from "ioredis";
import { createAgent, createMiddleware, tool } from "langchain";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { z } from "zod";
import { SanitizingCheckpointer, sanitizeGraph } from "langgraph-checkpoint-sanitizer";
import { sanitizeMessagesMiddleware } from "langgraph-checkpoint-sanitizer/middleware";
import { FastPostgresSaver } from "langgraph-checkpoint-sanitizer/postgres";
import { IORedisSaver } from "langgraph-checkpoint-sanitizer/redis";
import { rejectingProviders } from "../../support/oracle/provider-rejections.js";
import type { ScenarioName } from "./scenario-names.js";
import { FIRST_QUESTION, agentModel } from "../../support/graphs/agent-model.js";
import { settled } from "../../support/savers/settled.js";
import type { StrictChatModel } from "../../support/graphs/strict-chat-model.js";

const NEXT = "Thanks, and tomorrow?";

type Mode = "raw" | "checkpointer" | "sanitizeGraph";
type Tools = Record<string, (args: Record<string, unknown>, config: RunnableConfig) => unknown>;

const calmTools: Tools = { search: () => "Paris: 15°C", lookup: () => "Seoul: 12°C" };

/** Rejects when `signal` aborts: a tool still working when the run is cancelled. */
const hang = (signal: AbortSignal | undefined) =>
  new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }));

/** A ReAct agent with the 1.0 API: model node, one tools node, loop back. */
function agentBuilder(model: StrictChatModel, tools: Tools) {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
    .addNode("tools", async (state, config) => {
      const last = state.messages.at(-1) as AIMessage;
      const results = await Promise.all(
        (last.tool_calls ?? []).map(async (call) => {
          const content = String(await tools[call.name]!(call.args, config));
          return new ToolMessage({ content, tool_call_id: call.id!, name: call.name });
        }),
      );
      return { messages: results };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END))
    .addEdge("tools", "agent");
}

type Compiled = ReturnType<ReturnType<typeof agentBuilder>["compile"]>;

/** Compiles `builder` on `saver`, read the `mode` way. */
function compileFor<B extends { compile(options: object): Compiled }>(
  builder: B,
  saver: BaseCheckpointSaver,
  mode: Mode,
  options: object = {},
) {
  const checkpointer = mode === "checkpointer" ? new SanitizingCheckpointer(saver) : saver;
  const graph = builder.compile({ checkpointer, ...options });
  return mode === "sanitizeGraph" ? sanitizeGraph(graph) : graph;
}

const config = (thread: string, extra: object = {}) => ({
  configurable: { thread_id: thread },
  durability: "sync" as const,
  ...extra,
});
const transcript = (messages: BaseMessage[]) =>
  messages.map((m) => [m.type, m.content, (m as ToolMessage).tool_call_id ?? null]);

/** Runs `turn`, which must be cancelled. */
async function cancelled(turn: () => Promise<unknown>) {
  try {
    await turn();
  } catch {
    return;
  }
  throw new Error("the turn was not cancelled");
}

/** A first turn on `saver` cancelled while its tool runs, on `graph`. */
async function cancelFirstTurn(saver: BaseCheckpointSaver, makeGraph: (tools: Tools) => Compiled, thread: string) {
  const controller = new AbortController();
  const tools: Tools = {
    search: (_args, { signal }) => (controller.abort(), hang(signal)),
    lookup: () => "Seoul: 12°C",
  };
  await cancelled(() =>
    makeGraph(tools).invoke(
      { messages: [new HumanMessage(FIRST_QUESTION)] },
      config(thread, { signal: controller.signal }),
    ),
  );
  await settled(saver, thread);
}

/** What the next message gives: the reply's history, or the provider's rejection. */
async function nextMessage(graph: Compiled, thread: string) {
  try {
    const state = await graph.invoke({ messages: [new HumanMessage(NEXT)] }, config(thread));
    return { messages: state.messages as BaseMessage[] };
  } catch (error) {
    return { error: String(error) };
  }
}

/** What `fn` gives, or the error it throws: both sides of a comparison may fail alike on an older LangGraph. */
async function outcome<T>(fn: () => Promise<T>): Promise<{ value: T } | { error: string }> {
  try {
    return { value: await fn() };
  } catch (error) {
    return { error: String(error) };
  }
}

/** Fails unless the sanitized side equals the raw side. */
function same(raw: unknown, sanitized: unknown, what: string) {
  if (JSON.stringify(raw) !== JSON.stringify(sanitized)) {
    throw new Error(
      `${what} differs from raw:\nraw:       ${JSON.stringify(raw)}\nsanitized: ${JSON.stringify(sanitized)}`,
    );
  }
}

/** Fails unless `next` was answered on a history every provider accepts. */
function accepted(next: { messages?: BaseMessage[]; error?: string }, what: string) {
  if (next.error !== undefined) throw new Error(`${what}: ${next.error}`);
  const rejecting = rejectingProviders(next.messages!);
  if (Object.keys(rejecting).length > 0) throw new Error(`${what}: rejected by ${JSON.stringify(rejecting)}`);
}

type Open = () => Promise<BaseCheckpointSaver>;

const SCENARIOS: Record<ScenarioName, (open: Open) => Promise<string>> = {
  async "cancelled turn, then the next message"(open) {
    const outcomes: string[] = [];
    for (const mode of ["raw", "checkpointer", "sanitizeGraph"] as const) {
      const saver = await open();
      await cancelFirstTurn(saver, (tools) => compileFor(agentBuilder(agentModel("bedrock"), tools), saver, mode), "t");
      const next = await nextMessage(compileFor(agentBuilder(agentModel("bedrock"), calmTools), saver, mode), "t");
      if (mode === "raw") {
        if (next.error === undefined) throw new Error("the raw saver was expected to be rejected");
      } else accepted(next, mode);
      outcomes.push(`${mode}: ${next.error === undefined ? "answered" : "rejected"}`);
    }
    return outcomes.join(", ");
  },

  async "interrupt() and Command({ resume })"(open) {
    const run = async (mode: Mode) => {
      const builder = new StateGraph(MessagesAnnotation)
        .addNode("agent", (state) =>
          state.messages.at(-1)?.type === "tool"
            ? { messages: [new AIMessage(`Done: ${String(state.messages.at(-1)!.content)}`)] }
            : { messages: [new AIMessage({ content: "", tool_calls: [{ id: "email_1", name: "send", args: {} }] })] },
        )
        .addNode("tools", () => {
          const answer = interrupt({ question: "Send the email?" }) as { approve: boolean };
          const content = answer.approve ? "sent" : "cancelled";
          return { messages: [new ToolMessage({ content, tool_call_id: "email_1", name: "send" })] };
        })
        .addEdge(START, "agent")
        .addConditionalEdges("agent", (state) =>
          (state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END,
        )
        .addEdge("tools", "agent");
      const graph = compileFor(builder as never, await open(), mode);
      await graph.invoke({ messages: [new HumanMessage("Email Bob")] }, config("hitl"));
      const paused = await graph.getState(config("hitl"));
      const resumed = await graph.invoke(new Command({ resume: { approve: true } }), config("hitl"));
      return { paused: transcript(paused.values.messages), next: paused.next, resumed: transcript(resumed.messages) };
    };
    const raw = await run("raw");
    same(raw, await run("checkpointer"), "the checkpointer");
    same(raw, await run("sanitizeGraph"), "sanitizeGraph");
    return `resumed to ${JSON.stringify(raw.resumed.at(-1))}`;
  },

  async "subgraph: cancelled inside, then the next message"(open) {
    const parent = (tools: Tools) =>
      new StateGraph(MessagesAnnotation)
        .addNode("assistant", agentBuilder(agentModel("bedrock"), tools).compile())
        .addEdge(START, "assistant")
        .addEdge("assistant", END);
    const saver = await open();
    await cancelFirstTurn(saver, (tools) => compileFor(parent(tools) as never, saver, "checkpointer"), "sub");
    accepted(await nextMessage(compileFor(parent(calmTools) as never, saver, "checkpointer"), "sub"), "subgraph");
    return "answered";
  },

  async "subgraph: Send to nested subgraphs, an edit of a subgraph checkpoint, and resume"(open) {
    const run = async (mode: Mode) => {
      const inner = new StateGraph(MessagesAnnotation)
        .addNode("ask", (state) => {
          const answer = interrupt("Reply?") as string;
          return { messages: [new AIMessage(`${answer} (saw ${state.messages.length})`)] };
        })
        .addEdge(START, "ask")
        .addEdge("ask", END)
        .compile();
      const middle = new StateGraph(MessagesAnnotation)
        .addNode("inner", inner)
        .addEdge(START, "inner")
        .addEdge("inner", END)
        .compile();
      const builder = new StateGraph(MessagesAnnotation)
        .addNode("fan", () => ({}))
        .addNode("middle", middle)
        .addEdge(START, "fan")
        .addConditionalEdges("fan", (state) => [new Send("middle", state)], ["middle"])
        .addEdge("middle", END);
      const graph = compileFor(builder as never, await open(), mode);
      await graph.invoke({ messages: [new HumanMessage("hi")] }, config("nested"));
      const state = await graph.getState(config("nested"), { subgraphs: true });
      const sub = state.tasks.find((t) => t.state !== undefined)?.state as { config: RunnableConfig } | undefined;
      if (sub === undefined) throw new Error("no subgraph checkpoint to travel to");
      // Straight to the subgraph's checkpoint: updateState there edits the subgraph's own state.
      const edited = await outcome(() => graph.updateState(sub.config, { messages: [new HumanMessage("edited")] }));
      const resumed = await outcome(async () =>
        transcript((await graph.invoke(new Command({ resume: "yes" }), config("nested"))).messages),
      );
      return { next: state.next, edited: "error" in edited ? edited : "ok", resumed };
    };
    const raw = await run("raw");
    same(raw, await run("checkpointer"), "the checkpointer");
    same(raw, await run("sanitizeGraph"), "sanitizeGraph");
    return JSON.stringify(raw);
  },

  async "time travel: replay and fork from an earlier checkpoint"(open) {
    const run = async (mode: Mode) => {
      const graph = compileFor(agentBuilder(agentModel("bedrock"), calmTools), await open(), mode);
      await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config("tt"));
      const history = [];
      for await (const snapshot of graph.getStateHistory(config("tt"))) history.push(snapshot);
      const beforeTools = history.find((s) => s.next.includes("tools"))!;
      const replayed = await graph.invoke(null, { ...config("tt"), configurable: beforeTools.config.configurable });
      // Fork: edit the tool call at that checkpoint (same message id), then run on from the fork.
      const call = beforeTools.values.messages.at(-1) as AIMessage;
      const edited = new AIMessage({
        id: call.id,
        content: call.content,
        tool_calls: call.tool_calls!.map((c) => ({ ...c, args: { city: "Lyon" } })),
      });
      const fork = await graph.updateState(beforeTools.config, { messages: [edited] });
      const forked = await graph.invoke(null, { ...config("tt"), configurable: fork.configurable });
      return {
        history: history.map((s) => [s.next, transcript(s.values.messages ?? [])]),
        replayed: transcript(replayed.messages),
        forked: transcript(forked.messages),
      };
    };
    const raw = await run("raw");
    same(raw, await run("checkpointer"), "the checkpointer");
    same(raw, await run("sanitizeGraph"), "sanitizeGraph");
    return `${raw.history.length} checkpoints`;
  },

  async "static breakpoint approved with null input"(open) {
    const run = async (mode: Mode) => {
      const model = agentModel("bedrock");
      const graph = compileFor(agentBuilder(model, calmTools), await open(), mode, { interruptBefore: ["tools"] });
      await graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config("bp"));
      const paused = await graph.getState(config("bp"));
      const approved = await graph.invoke(null, config("bp"));
      return {
        paused: transcript(paused.values.messages),
        approved: transcript(approved.messages),
        seen: model.seen.map(transcript),
      };
    };
    const raw = await run("raw");
    same(raw, await run("sanitizeGraph"), "sanitizeGraph");
    return `approved to ${JSON.stringify(raw.approved.at(-1))}`;
  },

  async "failed tool retried with null input"(open) {
    const run = async (mode: Mode) => {
      let failed = false;
      const tools: Tools = {
        search: () => {
          if (failed) return "Paris: 15°C";
          failed = true;
          throw new Error("search backend timed out");
        },
        lookup: () => "Seoul: 12°C",
      };
      const model = agentModel("bedrock");
      const saver = await open();
      const graph = compileFor(agentBuilder(model, tools), saver, mode);
      await cancelled(() => graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config("retry")));
      await settled(saver, "retry");
      const retried = await graph.invoke(null, config("retry"));
      return { retried: transcript(retried.messages), seen: model.seen.map(transcript) };
    };
    const raw = await run("raw");
    same(raw, await run("sanitizeGraph"), "sanitizeGraph");
    return `retried to ${JSON.stringify(raw.retried.at(-1))}`;
  },

  async "createAgent: cancelled turn, then the next message; the middleware"(open) {
    const makeTools = (search: Tools["search"]) => [
      tool((args, config) => search!(args as Record<string, unknown>, config), {
        name: "search",
        description: "Weather of a city.",
        schema: z.object({ city: z.string() }),
      }),
      tool(() => "Seoul: 12°C", {
        name: "lookup",
        description: "Weather of a city.",
        schema: z.object({ city: z.string() }),
      }),
    ];
    const saver = await open();
    const controller = new AbortController();
    const first = sanitizeGraph(
      createAgent({
        model: agentModel("bedrock"),
        tools: makeTools((_args, { signal }) => (controller.abort(), hang(signal))),
        checkpointer: saver,
      }),
    );
    await cancelled(() =>
      first.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config("agent", { signal: controller.signal })),
    );
    await settled(saver, "agent");
    const agent = sanitizeGraph(
      createAgent({ model: agentModel("bedrock"), tools: makeTools(calmTools.search!), checkpointer: saver }),
    );
    const state = await agent.invoke({ messages: [new HumanMessage(NEXT)] }, config("agent"));
    accepted({ messages: state.messages }, "createAgent");

    // The middleware repairs a request another middleware broke (a trim that drops tool results), reports the
    // run's thread, and `configurable.tailPolicy: "off"` turns it off for a call: each needs the run's configurable.
    const trim = createMiddleware({
      name: "TrimToolResults",
      wrapModelCall: (request, handler) =>
        handler({ ...request, messages: request.messages.filter((m: BaseMessage) => m.type !== "tool") }),
    });
    const threads: unknown[] = [];
    const sanitize = sanitizeMessagesMiddleware({ onRepair: (event) => threads.push(event.threadId) });
    const trimmed = createAgent({
      model: agentModel("bedrock"),
      tools: makeTools(calmTools.search!),
      checkpointer: new MemorySaver(),
      middleware: [trim, sanitize],
    });
    const repaired = await outcome(() =>
      trimmed.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config("mw")),
    );
    if ("error" in repaired) throw new Error(`the middleware did not repair the trimmed request: ${repaired.error}`);
    if (!threads.includes("mw")) throw new Error(`onRepair saw threads ${JSON.stringify(threads)}, not "mw"`);
    const off = await outcome(() =>
      trimmed.invoke(
        { messages: [new HumanMessage(FIRST_QUESTION)] },
        { configurable: { thread_id: "off", tailPolicy: "off" } },
      ),
    );
    if (!("error" in off)) throw new Error('configurable.tailPolicy "off" did not turn the middleware off');
    return `answered after ${state.messages.length - 1} messages; the middleware repaired the trimmed request`;
  },
};

/** Opens savers of `backend`, each in its own namespace; `close` removes them all. */
function backend(name: string): { open: Open; close: () => Promise<void> } {
  const closers: (() => Promise<void>)[] = [];
  const unique = () => randomUUID().replaceAll("-", "").slice(0, 12);
  const open: Open = async () => {
    if (name === "memory") return new MemorySaver();
    if (name === "redis") {
      const client = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
      const prefix = `sanitizer-compat-${unique()}`;
      closers.push(async () => {
        for await (const keys of client.scanStream({ match: `${prefix}:*`, count: 500 })) {
          if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
        }
        await client.quit();
      });
      return new IORedisSaver(client, { keyPrefix: prefix });
    }
    const url = process.env.POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
    const schema = `sanitizer_compat_${unique()}`;
    const saver = FastPostgresSaver.fromConnString(url, { schema });
    await saver.setup();
    closers.push(async () => {
      await saver.end();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    });
    return saver;
  };
  return { open, close: async () => void (await Promise.all(closers.splice(0).map((close) => close()))) };
}

const results: Record<string, { ok: boolean; detail: string }> = {};
for (const name of (process.env.COMPAT_BACKENDS ?? "memory").split(",")) {
  for (const [scenario, run] of Object.entries(SCENARIOS)) {
    const { open, close } = backend(name);
    try {
      results[`${name} / ${scenario}`] = { ok: true, detail: await run(open) };
    } catch (error) {
      results[`${name} / ${scenario}`] = { ok: false, detail: (error as Error).stack ?? String(error) };
    } finally {
      await close();
    }
  }
}
console.log(JSON.stringify(results));
