/**
 * The sanitizer in a real deployment: the example's Agent Server (the
 * `@langchain/langgraph-api` embed routes over HTTP on a loopback port) driven
 * by the real `@langchain/langgraph-sdk` client, on every backend. Runs are
 * cancelled the way browsers cancel them: the client aborts the SSE stream
 * (the stop button) mid-tool, mid-LLM-stream or after one of two parallel
 * tools, and the server sees the disconnect and aborts the graph. The embed
 * server takes any checkpointer, so `sanitizeGraph` runs here on every backend.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startAgentServer, type AgentServer } from "../../examples/agent-server/server.js";
import { sanitizeGraph, SanitizingCheckpointer, SYNTHETIC_ID_PREFIX } from "../../src/index.js";
import { APPROVAL_QUESTION, approvalAgent } from "../support/graphs/approval-agent.js";
import { approvalRoundTrip, collect, historyShapes, human, messagesOf } from "../support/servers/sdk.js";
import { saverFactories, saverPerTest, type SaverFactory } from "../support/savers/savers.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { FRONT_ENDS, nextInput, type ViewMessage } from "../../examples/chat-ui/page/front-ends.js";
import { HONO_GLOBALS, saveGlobals } from "../support/restore.js";
import { serverPackageVersion } from "./server-lines.js";
import {
  FIRST_QUESTION,
  LOOKUP_RESULT,
  agentModel,
  stoppingAgent,
  type StopPoint,
} from "../support/graphs/scenarios.js";

// The example serves through @hono/node-server, which replaces the global Request and Response: put back when the
// file ends, for the files the worker runs next.
afterAll(saveGlobals(HONO_GLOBALS));

/** The server's checkpointer raw, wrapped in SanitizingCheckpointer, or raw with the graph wrapped by sanitizeGraph. */
type Mode = "raw" | "sanitized" | "sanitizeGraph";
type Graph = Parameters<typeof startAgentServer>[0]["graphs"][string];

/** For use inside a `describe`: starts a server per call (see Mode), all closed after the test. */
function serverPerTest(factory: SaverFactory) {
  const open = saverPerTest(factory);
  const started: AgentServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  return async (mode: Mode, graph: Graph) => {
    const saver: BaseCheckpointSaver = await open();
    const checkpointer = mode === "sanitized" ? new SanitizingCheckpointer(saver) : saver;
    const server = await startAgentServer({
      graphs: { agent: mode === "sanitizeGraph" ? sanitizeGraph(graph) : graph },
      checkpointer,
    });
    started.push(server);
    return new Client({ apiUrl: server.url });
  };
}

const STOPS = ["during-tools", "during-llm", "after-one-of-two-parallel-tools"] as const satisfies readonly StopPoint[];

/**
 * The agent the server hosts, with the stop button wired in: at `stop` during
 * the first turn it aborts the client's stream, and `serverAborted` resolves
 * once the server has aborted the graph in turn. The model is as strict as
 * Bedrock, which rejects every history these cancellations leave.
 */
function cancellingAgent(stop: StopPoint, stopButton: AbortController) {
  let serverAborted!: () => void;
  const aborted = new Promise<void>((resolve) => (serverAborted = resolve));
  const { builder, model } = stoppingAgent(
    stop,
    (signal) => {
      signal?.addEventListener("abort", () => serverAborted(), { once: true });
      stopButton.abort();
    },
    "bedrock",
  );
  return {
    graph: builder.compile().withConfig({ durability: "sync" }) as unknown as Graph,
    serverAborted: aborted,
    model,
  };
}

for (const factory of saverFactories) {
  describe(`Agent Server and SDK client on ${factory.name}`, () => {
    const serve = serverPerTest(factory);

    /** Creates a thread, streams the first turn and presses stop at `stop`. */
    async function cancelledThread(mode: Mode, stop: StopPoint) {
      const stopButton = new AbortController();
      const agent = cancellingAgent(stop, stopButton);
      const client = await serve(mode, agent.graph);
      const { thread_id } = await client.threads.create();
      const first = collect(
        client.runs.stream(thread_id, "agent", {
          input: human(FIRST_QUESTION),
          streamMode: ["values", "messages-tuple"],
          signal: stopButton.signal,
          onDisconnect: "cancel",
        }),
      );
      await expect(first).rejects.toThrow(/abort/i);
      await agent.serverAborted;
      return { client, thread_id, model: agent.model };
    }

    describe.each(STOPS)("stop pressed %s", (stop) => {
      it.each(["sanitized", "sanitizeGraph"] as const)("the next message streams to completion (%s)", async (mode) => {
        const { client, thread_id, model } = await cancelledThread(mode, stop);
        const parts = await collect(
          client.runs.stream(thread_id, "agent", {
            input: human("Thanks, and tomorrow?"),
            streamMode: ["values", "messages-tuple"],
          }),
        );
        expect(parts.filter((p) => p.event === "error")).toEqual([]);
        expect(parts.some((p) => p.event === "messages")).toBe(true);
        const final = messagesOf(parts.filter((p) => p.event === "values").at(-1)!.data);
        expect(final.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
        expect(model.rejections).toEqual([]);
      });

      it("the same sequence on the raw saver fails with the provider's error", async () => {
        const { client, thread_id, model } = await cancelledThread("raw", stop);
        const parts = await collect(
          client.runs.stream(thread_id, "agent", { input: human("Thanks, and tomorrow?"), streamMode: ["values"] }),
        );
        const errors = parts.filter((p) => p.event === "error");
        expect(errors).toHaveLength(1);
        expect(JSON.stringify(errors[0]!.data)).toContain("bedrock 400");
        expect(model.rejections).toHaveLength(1);
      });
    });

    describe.each(FRONT_ENDS)("%s answers the stopped calls in its next input", (client) => {
      it.each(["during-tools", "after-one-of-two-parallel-tools"] as const)(
        "stopped %s: raw fails at the provider, sanitizeGraph answers each call once",
        async (stop) => {
          for (const mode of ["raw", "sanitizeGraph"] as const) {
            const stopButton = new AbortController();
            const agent = cancellingAgent(stop, stopButton);
            const sdk = await serve(mode, agent.graph);
            const { thread_id } = await sdk.threads.create();
            const values: unknown[] = [];
            const first = (async () => {
              const parts = sdk.runs.stream(thread_id, "agent", {
                input: human(FIRST_QUESTION),
                streamMode: ["values"],
                signal: stopButton.signal,
                onDisconnect: "cancel",
              });
              for await (const part of parts) if (part.event === "values") values.push(part.data);
            })();
            await expect(first).rejects.toThrow(/abort/i);
            await agent.serverAborted;
            const input = nextInput(client, messagesOf(values.at(-1)) as ViewMessage[], "Thanks, and tomorrow?");
            const parts = await collect(sdk.runs.stream(thread_id, "agent", { input, streamMode: ["values"] }));
            const errors = parts.filter((p) => p.event === "error");
            if (mode === "raw") {
              expect(JSON.stringify(errors)).toContain("bedrock 400");
              continue;
            }
            expect(errors).toEqual([]);
            const final = messagesOf(parts.filter((p) => p.event === "values").at(-1)!.data);
            expect(final.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
            const results = final.filter((m) => m.type === "tool");
            expect(results.map((m) => m.tool_call_id)).toEqual(["call_0_0", "call_0_1"]);
            if (stop === "after-one-of-two-parallel-tools") expect(results[1]!.content).toBe(LOOKUP_RESULT);
          }
        },
      );
    });

    it("threads.getState repairs a cancelled run's tail and getHistory preserves every tail, as the tail-policy table says", async () => {
      const raw = await cancelledThread("raw", "during-tools");
      const sanitized = await cancelledThread("sanitized", "during-tools");
      const [rawState, state] = await Promise.all([
        raw.client.threads.getState(raw.thread_id),
        sanitized.client.threads.getState(sanitized.thread_id),
      ]);
      // Raw: the dangling tool calls. Sanitized: each answered by a placeholder, then a closing reply.
      expect(messagesOf(rawState.values).map((m) => m.type)).toEqual(["human", "ai"]);
      const repaired = messagesOf(state.values);
      expect(repaired.map((m) => m.type)).toEqual(["human", "ai", "tool", "tool", "ai"]);
      expect(repaired.slice(2).every((m) => m.id?.startsWith(SYNTHETIC_ID_PREFIX))).toBe(true);
      expect(repaired.slice(2, 4).map((m) => m.tool_call_id)).toEqual(repaired[1]!.tool_calls!.map((c) => c.id));
      // The pending step is reported as it is stored.
      expect(state.next).toEqual(rawState.next);

      const [rawHistory, history] = await Promise.all([
        raw.client.threads.getHistory(raw.thread_id),
        sanitized.client.threads.getHistory(sanitized.thread_id),
      ]);
      expect(historyShapes(history)).toEqual(historyShapes(rawHistory));
      expect(history.length).toBeGreaterThan(1);
    });

    // The embed server of API 2.0.0 replaces a run's `config.configurable` with its own keys, so no per-call
    // override reaches the checkpointer there (sanitizeGraph needs none: see the retry test below).
    it.runIf(serverPackageVersion("api").startsWith("1."))(
      'a run with configurable.tailPolicy "preserve" retries the cancelled step (input null) and completes',
      async () => {
        const { client, thread_id } = await cancelledThread("sanitized", "during-tools");
        const parts = await collect(
          client.runs.stream(thread_id, "agent", {
            input: null,
            config: { configurable: { tailPolicy: "preserve" } },
            streamMode: ["values"],
          }),
        );
        expect(parts.filter((p) => p.event === "error")).toEqual([]);
        const final = messagesOf(parts.filter((p) => p.event === "values").at(-1)!.data);
        expect(final.map((m) => m.type)).toEqual(["human", "ai", "tool", "tool", "ai"]);
        expect(final.some((m) => m.id?.startsWith(SYNTHETIC_ID_PREFIX))).toBe(false);

        expect(final.filter((m) => m.type === "tool").map((m) => m.content)).toEqual(["Paris: 15°C", LOOKUP_RESULT]);

        // The plain wrapper does not see the input: without the override the retry starts from the repaired tail, the
        // tools see no open call, and the real results are lost. sanitizeGraph sees the null input (below).
        const other = await cancelledThread("sanitized", "during-tools");
        const retried = await collect(
          other.client.runs.stream(other.thread_id, "agent", { input: null, streamMode: ["values"] }),
        );
        const lost = messagesOf(retried.filter((p) => p.event === "values").at(-1)!.data);
        expect(lost.filter((m) => m.type === "tool").every((m) => m.id?.startsWith(SYNTHETIC_ID_PREFIX))).toBe(true);
      },
    );

    it("human in the loop: pauses at interrupt(), getState shows it, and resume completes exactly as on the raw saver", async () => {
      const run = async (mode: Mode) =>
        approvalRoundTrip(await serve(mode, approvalAgent().compile() as unknown as Graph), "agent");
      const raw = await run("raw");
      const sanitized = await run("sanitized");
      expect(sanitized).toEqual(raw);
      expect(sanitized.interrupts).toEqual([APPROVAL_QUESTION]);
      expect(sanitized.doneMessages.at(-1)).toEqual(["ai", "Done: Email sent to bob@example.com"]);
    });

    it("sanitizeGraph: a run with input null retries the cancelled step with its real results, as raw", async () => {
      const retry = async (mode: Mode) => {
        const { client, thread_id } = await cancelledThread(mode, "during-tools");
        const parts = await collect(client.runs.stream(thread_id, "agent", { input: null, streamMode: ["values"] }));
        expect(parts.filter((p) => p.event === "error")).toEqual([]);
        return messagesOf(parts.filter((p) => p.event === "values").at(-1)!.data).map((m) => [m.type, m.content]);
      };
      const sanitized = await retry("sanitizeGraph");
      expect(sanitized).toEqual(await retry("raw"));
      expect(sanitized.filter(([type]) => type === "tool").map(([, c]) => c)).toEqual(["Paris: 15°C", LOOKUP_RESULT]);
    });

    it("sanitizeGraph: a run with interruptBefore, getState while paused, then input null: as raw", async () => {
      const approve = async (mode: Mode) => {
        const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
        const graph = reactGraph({ model: agentModel("bedrock"), tools }).builder.compile();
        const client = await serve(mode, graph.withConfig({ durability: "sync" }) as unknown as Graph);
        const { thread_id } = await client.threads.create();
        const options = { interruptBefore: ["tools"], streamMode: ["values" as const] };
        await collect(client.runs.stream(thread_id, "agent", { input: human(FIRST_QUESTION), ...options }));
        const paused = await client.threads.getState(thread_id);
        const parts = await collect(client.runs.stream(thread_id, "agent", { input: null, ...options }));
        return {
          paused: [paused.next, messagesOf(paused.values).map((m) => [m.type, m.content])],
          approved: messagesOf(parts.filter((p) => p.event === "values").at(-1)!.data).map((m) => [m.type, m.content]),
        };
      };
      const sanitized = await approve("sanitizeGraph");
      expect(sanitized).toEqual(await approve("raw"));
      expect(sanitized.approved.at(-1)).toEqual(["ai", "Paris is 15°C, Seoul is 12°C."]);
    });

    it("sanitizeGraph: getState while a run's tool is working reads as raw", async () => {
      const during = async (mode: Mode) => {
        let inTool!: () => void;
        const started = new Promise<void>((resolve) => (inTool = resolve));
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const tools = { search: async () => (inTool(), await gate, "Paris: 15°C"), lookup: () => LOOKUP_RESULT };
        const graph = reactGraph({ model: agentModel("bedrock"), tools }).builder.compile();
        const client = await serve(mode, graph.withConfig({ durability: "sync" }) as unknown as Graph);
        const { thread_id } = await client.threads.create();
        const run = collect(client.runs.stream(thread_id, "agent", { input: human(FIRST_QUESTION) }));
        await started;
        const state = await client.threads.getState(thread_id);
        release();
        await run;
        return [state.next, messagesOf(state.values).map((m) => [m.type, m.content])];
      };
      const sanitized = await during("sanitizeGraph");
      expect(sanitized).toEqual(await during("raw"));
      expect(sanitized).toEqual([
        ["tools"],
        [
          ["human", FIRST_QUESTION],
          ["ai", "Let me check both cities. "],
        ],
      ]);
    });
  });
}
