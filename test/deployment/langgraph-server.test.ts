/**
 * `sanitizeGraph` on the real Agent Server (`startServer` of `@langchain/langgraph-api`, what `langgraph dev`
 * runs), driven only through the SDK client. The server loads fixtures/server-graphs.ts, where each graph is
 * registered twice, raw and sanitized, and assigns its own checkpointer to the graph on every request. That
 * checkpointer is fixed (an in-memory saver persisted under `cwd`): `startServer` accepts no other, so these
 * tests run on it; SQLite/Postgres/Redis are covered through the embed server in agent-server.test.ts.
 *
 * `startServer` runs once per process (its queue workers loop forever), so one server serves every test.
 */
import { Client } from "@langchain/langgraph-sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { register } from "tsx/esm/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYNTHETIC_ID_PREFIX } from "../../src/index.js";
import { AGENT_SERVER_GLOBALS, saveGlobals, setEnv } from "../support/restore.js";
import { APPROVAL_QUESTION } from "../support/graphs/approval-agent.js";
import { PROVIDER_PROFILES, type ProviderProfile } from "../support/oracle/provider-rejections.js";
import { FIRST_QUESTION, LOOKUP_RESULT } from "../support/graphs/scenarios.js";
import {
  FRONT_ENDS,
  SUBMIT_OPTIONS,
  frontendToolResult,
  nextInput,
  type FrontEnd,
  type ViewMessage,
} from "../../examples/chat-ui/page/front-ends.js";
import { cancelledRunStatus, serverPackageVersion, streamsSubgraphsResumably } from "./server-lines.js";
import { CLIENTS, frontEnd, type ClientName } from "../support/front-ends/clients.js";
import {
  JOURNEYS,
  SHARED_JOURNEYS,
  STOPS,
  journeyOf,
  sharedJourney,
  type Journey,
  type Stop,
} from "../support/front-ends/journeys.js";
import { controllerThread, runsEnded, runsThread, streamController } from "../support/front-ends/server-thread.js";
import {
  approvalRoundTrip,
  cancelledThread,
  collect,
  errorsOf,
  finalMessages,
  firstTurnMidTool,
  historyShapes,
  human,
  messagesOf,
  type StreamPart,
} from "../support/servers/sdk.js";

const GRAPHS = join(fileURLToPath(new URL(".", import.meta.url)), "fixtures", "server-graphs.ts");
const VARIANTS = ["", "Factory", "Subgraph", "CreateAgent", "Approval", "Breakpoint", "FrontendTool"] as const;
/** The agent on each strict profile: `rawOpenai`, `sanitizedOpenai`, … */
const PROFILED = PROVIDER_PROFILES.map((p) => `${p[0]!.toUpperCase()}${p.slice(1)}`);
const FOLLOW_UP = "Thanks, and tomorrow?";
/** The front ends' journeys (fixtures/server-graphs.ts): a factory whose assistants pick the entry point. */
const JOURNEY_GRAPHS = ["journey"] as const;
const BROKEN = /bedrock 400/;
/** The messages of an `updates` part, node by node. */
const updateMessages = (data: unknown) =>
  Object.values(data as Record<string, { messages?: ViewMessage[] } | null>).flatMap((u) => u?.messages ?? []);

let client: Client;
let apiUrl: string;
let stop: () => Promise<void>;
let restore = () => {};

beforeAll(async () => {
  // Read when the server's logger is first imported. No such level: nothing is logged (raw runs fail on purpose).
  // Put back when the file ends, even when the server failed to start, with the globals the server and the journeys
  // set: the worker runs other files next, whose child processes inherit its environment.
  const restoreGlobals = saveGlobals([...AGENT_SERVER_GLOBALS, SHARED_JOURNEYS]);
  const restoreEnv = setEnv({ LOG_LEVEL: "off" });
  restore = () => {
    restoreEnv();
    restoreGlobals();
  };
  // The server imports the graph module with a plain import(); tsx lets it load TypeScript, as `langgraph dev` does.
  const unregister = register();
  const { startServer } = await import("@langchain/langgraph-api/server");
  const cwd = mkdtempSync(join(tmpdir(), "sanitizer-langgraph-server-"));
  const graphs = Object.fromEntries(
    [...[...VARIANTS, ...PROFILED].flatMap((v) => [`raw${v}`, `sanitized${v}`]), ...JOURNEY_GRAPHS].map((id) => [
      id,
      `${GRAPHS}:${id}`,
    ]),
  );
  const server = await startServer({ port: 0, host: "127.0.0.1", nWorkers: 4, cwd, graphs });
  apiUrl = `http://${server.host}`;
  client = new Client({ apiUrl });
  stop = async () => {
    await server.cleanup();
    await unregister();
    rmSync(cwd, { recursive: true, force: true });
  };
});

afterAll(async () => {
  await stop?.();
  restore();
});

type Mode = "raw" | "sanitized";
const modes = [["raw"], ["sanitized"]] as const;

const followUp = (thread_id: string, assistant: string) =>
  collect(client.runs.stream(thread_id, assistant, { input: human(FOLLOW_UP), streamMode: ["values"] }));

/** What the next message on a broken thread gives: the reply, or the strict model's rejection. */
function expectNextTurn(mode: Mode, parts: StreamPart[]) {
  if (mode === "raw") {
    expect(errorsOf(parts)).toHaveLength(1);
    expect(JSON.stringify(errorsOf(parts)[0]!.data)).toMatch(BROKEN);
  } else {
    expect(errorsOf(parts)).toEqual([]);
    const messages = finalMessages(parts);
    expect(messages[0]).toMatchObject({ type: "human", content: FIRST_QUESTION });
    expect(messages.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
  }
}

describe(`sanitizeGraph on the Agent Server ${serverPackageVersion("api")} (startServer), through the SDK ${serverPackageVersion("sdk")}`, () => {
  it("serves the API line this test project is for", async () => {
    const info = (await (await fetch(`${apiUrl}/info`)).json()) as { version: string };
    expect(info.version).toBe(serverPackageVersion("api"));
  });

  describe.each(modes)("%s graph", (mode) => {
    it('run cancelled mid-tool with runs.cancel(…, "interrupt"), then the next message', async () => {
      const thread_id = await cancelledThread(client, mode);
      expectNextTurn(mode, await followUp(thread_id, mode));
    });

    it.each(["interrupt", "rollback"] as const)(
      "double-texting with multitaskStrategy %s while a tool runs",
      async (strategy) => {
        const { thread_id, rest } = await firstTurnMidTool(client, mode);
        const second = await collect(
          client.runs.stream(thread_id, mode, {
            input: human(FOLLOW_UP),
            multitaskStrategy: strategy,
            streamMode: ["values"],
          }),
        );
        await collect(rest);
        expectNextTurn(mode, second);
      },
    );

    it("double-texting with multitaskStrategy enqueue: both turns complete, in order", async () => {
      const { thread_id, rest } = await firstTurnMidTool(client, mode, { searchMs: 300 });
      const second = await collect(
        client.runs.stream(thread_id, mode, {
          input: human(FOLLOW_UP),
          multitaskStrategy: "enqueue",
          streamMode: ["values"],
        }),
      );
      await collect(rest);
      expect(errorsOf(second)).toEqual([]);
      expect(finalMessages(second).map((m) => [m.type, m.content])).toEqual([
        ["human", FIRST_QUESTION],
        ["ai", "Let me check both cities. "],
        ["tool", "Paris: 15°C"],
        ["tool", LOOKUP_RESULT],
        ["ai", "Paris is 15°C, Seoul is 12°C."],
        ["human", FOLLOW_UP],
        ["ai", "Happy to help with that."],
      ]);
    });

    it('stream dropped with onDisconnect "cancel", then the next message', async () => {
      const stopButton = new AbortController();
      const dropped = { signal: stopButton.signal, onDisconnect: "cancel" } as const;
      const { thread_id, run_id, rest } = await firstTurnMidTool(client, mode, dropped);
      stopButton.abort();
      // The SDK ends or rejects the aborted stream depending on where the abort lands; either way the server cancels.
      await collect(rest).catch(() => []);
      await client.runs.join(thread_id, run_id);
      // What the run is recorded as depends on the server line (see server-lines.ts); the next message works on both.
      expect((await client.runs.get(thread_id, run_id)).status).toBe(cancelledRunStatus());
      expectNextTurn(mode, await followUp(thread_id, mode));
    });

    it.each(["Factory", "Subgraph", "CreateAgent"])(
      "%s: cancelled mid-tool, then the next message",
      async (variant) => {
        const thread_id = await cancelledThread(client, `${mode}${variant}`);
        expectNextTurn(mode, await followUp(thread_id, `${mode}${variant}`));
      },
    );
  });

  describe.each(modes)("%s graph, stopped by a front end that answers the stopped calls itself", (mode) => {
    /**
     * The first turn stopped as `frontEnd` stops it: assistant-ui aborts its stream (`onDisconnect: "cancel"`, its
     * stream helper's default), agent-chat-ui aborts a resumable stream, so the run goes on to its end. Returns the
     * thread and the client's view when Stop was pressed.
     */
    const profiled = (profile: ProviderProfile) => `${mode}${PROFILED[PROVIDER_PROFILES.indexOf(profile)]}`;

    async function stoppedBy(frontEnd: FrontEnd, profile: ProviderProfile) {
      const { thread_id } = await client.threads.create();
      const stopButton = new AbortController();
      const resumable = frontEnd === "agent-chat-ui";
      const parts = client.runs.stream(thread_id, profiled(profile), {
        input: human(FIRST_QUESTION),
        ...SUBMIT_OPTIONS[frontEnd],
        ...(streamsSubgraphsResumably() ? {} : { streamSubgraphs: false }),
        config: { configurable: { search_ms: resumable ? 300 : 60_000 } },
        signal: stopButton.signal,
      });
      let run_id = "";
      let view: ViewMessage[] = [];
      for await (const part of parts) {
        if (part.event === "metadata") run_id = (part.data as { run_id: string }).run_id;
        if (part.event === "values") view = messagesOf(part.data) as ViewMessage[];
        if (part.event === "updates") view = [{ type: "human", content: FIRST_QUESTION }, ...updateMessages(part.data)];
        if (view.at(-1)?.tool_calls?.length) break;
      }
      stopButton.abort();
      await client.runs.join(thread_id, run_id);
      return { thread_id, view };
    }

    describe.each(FRONT_ENDS)("%s", (frontEnd) => {
      it.each(PROVIDER_PROFILES)("on %s: the next message answers each call once", async (profile) => {
        const { thread_id, view } = await stoppedBy(frontEnd, profile);
        const input = nextInput(frontEnd, view, FOLLOW_UP);
        const parts = await collect(
          client.runs.stream(thread_id, profiled(profile), { input, streamMode: ["values"] }),
        );
        // Raw, the stubs are a second answer where the run went on (agent-chat-ui), and a user turn right after
        // tool results otherwise, which only Bedrock and Mistral reject.
        const rawAnswered = frontEnd === "assistant-ui" && profile !== "bedrock" && profile !== "mistral";
        expect(errorsOf(parts).length === 0, JSON.stringify(errorsOf(parts))).toBe(mode === "sanitized" || rawAnswered);
        if (mode === "raw") return;
        const messages = finalMessages(parts);
        expect(messages.at(-1)).toMatchObject({ type: "ai", content: "Happy to help with that." });
        const results = messages.filter((m) => m.type === "tool");
        const calls = messages.find((m) => m.tool_calls?.length)!.tool_calls!.map((c) => c.id);
        expect(results.map((m) => m.tool_call_id)).toEqual(calls);
        // The run that went on answered both: its results stand, the page's stubs are dropped.
        if (frontEnd === "agent-chat-ui") expect(results.map((m) => m.content)).toEqual(["Paris: 15°C", LOOKUP_RESULT]);
      });
    });
  });

  it.each(modes)("%s graph: a frontend tool's result continues the run as on the raw graph", async (mode) => {
    const { thread_id } = await client.threads.create();
    const assistant = `${mode}FrontendTool`;
    await collect(client.runs.stream(thread_id, assistant, { input: human("Book a table"), streamMode: ["values"] }));
    const call = messagesOf((await client.threads.getState(thread_id)).values).at(-1)!.tool_calls![0]!;
    const input = frontendToolResult(call.id, "confirm", { booked: true });
    const parts = await collect(client.runs.stream(thread_id, assistant, { input, streamMode: ["values"] }));
    expect(errorsOf(parts)).toEqual([]);
    expect(finalMessages(parts).map((m) => [m.type, m.content])).toEqual([
      ["human", "Book a table"],
      ["ai", "Shall I book it? "],
      ["tool", '{"booked":true}'],
      ["ai", 'Booked: {"booked":true}'],
    ]);
  });

  it("getState after a cancel shows the repaired tail; getHistory equals raw", async () => {
    const [raw, sanitized] = await Promise.all([cancelledThread(client, "raw"), cancelledThread(client, "sanitized")]);
    const [rawState, state] = await Promise.all([client.threads.getState(raw), client.threads.getState(sanitized)]);
    expect(messagesOf(rawState.values).map((m) => m.type)).toEqual(["human", "ai"]);
    const repaired = messagesOf(state.values);
    expect(repaired.map((m) => m.type)).toEqual(["human", "ai", "tool", "tool", "ai"]);
    expect(repaired.slice(2).every((m) => m.id?.startsWith(SYNTHETIC_ID_PREFIX))).toBe(true);
    // `next` still shows the cancelled step: the repair changes messages, not the pending tasks.
    expect(state.next).toEqual(["tools"]);
    expect(state.next).toEqual(rawState.next);
    const [rawHistory, history] = await Promise.all(
      [raw, sanitized].map((thread) => client.threads.getHistory(thread)),
    );
    expect(history.length).toBeGreaterThan(1);
    expect(historyShapes(history)).toEqual(historyShapes(rawHistory));
  });

  it("a clean thread reads exactly as raw: getState and getHistory", async () => {
    const read = async (assistant: Mode) => {
      const { thread_id } = await client.threads.create();
      const parts = await collect(
        client.runs.stream(thread_id, assistant, {
          input: human(FIRST_QUESTION),
          config: { configurable: { search_ms: 1 } },
          streamMode: ["values"],
        }),
      );
      expect(errorsOf(parts)).toEqual([]);
      const state = await client.threads.getState(thread_id);
      const history = await client.threads.getHistory(thread_id);
      // Ids are random per thread; the rest must match.
      const content = (values: unknown) =>
        messagesOf(values).map((m) => [m.type, m.content, m.tool_calls?.length ?? 0]);
      const steps = history.map((s) => [s.next, content(s.values), s.metadata?.step]);
      return { values: content(state.values), next: state.next, history: steps };
    };
    const [raw, sanitized] = [await read("raw"), await read("sanitized")];
    expect(sanitized).toEqual(raw);
    expect(raw.values).toHaveLength(5);
  });

  it("interrupt() and resume with command: { resume } give exactly what the raw graph gives", async () => {
    const raw = await approvalRoundTrip(client, "rawApproval");
    const sanitized = await approvalRoundTrip(client, "sanitizedApproval");
    expect(sanitized).toEqual(raw);
    expect(sanitized.interrupts).toEqual([APPROVAL_QUESTION]);
    expect(sanitized.doneMessages.at(-1)).toEqual(["ai", "Done: Email sent to bob@example.com"]);
  });

  it.each([
    ["with no override", {}],
    ['with configurable.tailPolicy "preserve"', { tailPolicy: "preserve" }],
  ])("input null %s retries the cancelled tools with their real results, as raw does", async (_, override) => {
    const retry = async (assistant: Mode) => {
      const thread_id = await cancelledThread(client, assistant);
      const parts = await collect(
        client.runs.stream(thread_id, assistant, {
          input: null,
          config: { configurable: { ...override, search_ms: 1 } },
          streamMode: ["values"],
        }),
      );
      expect(errorsOf(parts)).toEqual([]);
      return finalMessages(parts).map((m) => [m.type, m.content, m.id?.startsWith(SYNTHETIC_ID_PREFIX) ?? false]);
    };
    const sanitized = await retry("sanitized");
    expect(sanitized).toEqual(await retry("raw"));
    expect(sanitized.filter(([type]) => type === "tool").map(([, content]) => content)).toEqual([
      "Paris: 15°C",
      LOOKUP_RESULT,
    ]);
  });

  /** What a client sees of a tool approval at a static breakpoint: the paused state, then the approved run. */
  const approveAtBreakpoint = async (assistant: string, interruptBefore?: string[]) => {
    const { thread_id } = await client.threads.create();
    const config = { configurable: { search_ms: 1 } };
    await collect(client.runs.stream(thread_id, assistant, { input: human(FIRST_QUESTION), config, interruptBefore }));
    const paused = await client.threads.getState(thread_id);
    const history = historyShapes(await client.threads.getHistory(thread_id));
    const parts = await collect(
      client.runs.stream(thread_id, assistant, { input: null, config, interruptBefore, streamMode: ["values"] }),
    );
    return {
      paused: [paused.next, messagesOf(paused.values).map((m) => [m.type, m.content])],
      history,
      errors: errorsOf(parts),
      approved: finalMessages(parts).map((m) => [m.type, m.content]),
    };
  };

  it("a breakpoint set at compile time: paused state and history, then input null, as raw", async () => {
    const raw = await approveAtBreakpoint("rawBreakpoint");
    const sanitized = await approveAtBreakpoint("sanitizedBreakpoint");
    expect(sanitized).toEqual(raw);
    expect(sanitized.paused).toEqual([
      ["tools"],
      [
        ["human", FIRST_QUESTION],
        ["ai", "Let me check both cities. "],
      ],
    ]);
    expect(sanitized.approved.at(-1)).toEqual(["ai", "Paris is 15°C, Seoul is 12°C."]);
  });

  it("a run with interruptBefore, as Studio sends it, then a run with input null: as raw", async () => {
    const raw = await approveAtBreakpoint("raw", ["tools"]);
    const sanitized = await approveAtBreakpoint("sanitized", ["tools"]);
    expect(sanitized).toEqual(raw);
    expect(sanitized.errors).toEqual([]);
    expect(sanitized.approved.filter(([type]) => type === "tool").map(([, content]) => content)).toEqual([
      "Paris: 15°C",
      LOOKUP_RESULT,
    ]);
  });

  it("getState while a run's tool is working reads as raw", async () => {
    const during = async (assistant: Mode) => {
      const { thread_id, run_id, rest } = await firstTurnMidTool(client, assistant);
      const state = await client.threads.getState(thread_id);
      await client.runs.cancel(thread_id, run_id, true, "interrupt");
      await collect(rest);
      return [state.next, messagesOf(state.values).map((m) => [m.type, m.content])];
    };
    const sanitized = await during("sanitized");
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

describe("every button after a Stop, as each front end sends it through its own SDK", () => {
  /** The journey graph through `entry`, for `name`'s journeys only (its own stop switch). */
  const assistantFor = async (entry: "raw" | "sanitized" | "middleware", name: ClientName) =>
    (
      await client.assistants.create({
        graphId: "journey",
        config: { configurable: { journey: `${entry}:${name}` } },
      })
    ).assistant_id;

  /** A journey of `name` on a new thread of `assistant`, through the route and SDK the client uses. */
  async function journeyOn(name: ClientName, assistant: string, journey: Journey, stop: Stop) {
    const threadId = randomUUID();
    const { stops, log } = sharedJourney(name);
    // @langchain/react's useStream creates the thread with its first run.start; the others (react-langchain through
    // the official example's `create`) create it first.
    const v2 = name === "@langchain/react" || name === "assistant-ui (react-langchain)";
    if (name !== "@langchain/react") await client.threads.create({ threadId });
    const { api, dispose } = v2
      ? await controllerThread(client, apiUrl, assistant, threadId)
      : { api: runsThread(client, assistant, threadId, name), dispose: () => {} };
    const page = frontEnd(name, api);
    stops.onStop = () => page.stop();
    try {
      return await journeyOf(page, stops, log, { journey, stop }, () => runsEnded(client, threadId));
    } finally {
      dispose();
    }
  }

  /**
   * On 2.0, the server fails every run sent with `stream_subgraphs` (agent-chat-ui's and the AG-UI adapter's), raw
   * graphs alike, and has no thread protocol (`/threads/{id}/commands`, which @langchain/react speaks): 404.
   */
  const servedOnThisLine = (name: ClientName) =>
    streamsSubgraphsResumably() || name === "assistant-ui (react-langgraph)";

  // Each client's journeys run one after another on graphs of its own; the clients run at once.
  it.concurrent.each(CLIENTS.filter(servedOnThisLine))(
    "%s: every journey, stopped mid-tool and mid-text, answered through sanitizeGraph on all five profiles at once; the next message rejected raw, answered through the middleware",
    async (name) => {
      const sanitized = await assistantFor("sanitized", name);
      for (const stop of STOPS) {
        for (const journey of JOURNEYS) {
          const result = await journeyOn(name, sanitized, journey, stop);
          if (!result.offered) continue;
          expect(result.rejections, `${stop} ${journey}`).toEqual([]);
          expect(result.answered, `${stop} ${journey}`).toBe(true);
          if (stop === "mid-tool" && result.finishedResult !== "not in the request")
            expect(result.finishedResult, journey).toBe(LOOKUP_RESULT);
        }
      }
      const raw = await journeyOn(name, await assistantFor("raw", name), "next message", "mid-tool");
      const middleware = await journeyOn(name, await assistantFor("middleware", name), "next message", "mid-tool");
      // agent-chat-ui's Stop lets the run go on (onDisconnect "continue"): raw, its stubs answer the calls twice.
      expect(raw.answered).toBe(false);
      expect(middleware.rejections).toEqual([]);
      expect(middleware.answered).toBe(true);
    },
    300_000,
  );
});

describe.runIf(streamsSubgraphsResumably())("the thread protocol as @langchain/react 1.1 drives it", () => {
  /** `submit(input, options)` on a new thread of `assistant`, one after another, then the thread's state. */
  async function submitted(assistant: string, inputs: unknown[], options?: { multitaskStrategy?: string }) {
    const threadId = randomUUID();
    const controller = await streamController(apiUrl, assistant, threadId);
    try {
      for (const input of inputs) {
        await controller.submit(input, options);
        await runsEnded(client, threadId);
      }
      const state = await client.threads.getState(threadId);
      return { messages: messagesOf(state.values).map((m) => [m.type, m.content]), next: state.next };
    } finally {
      controller.dispose?.();
    }
  }

  it("new input while an interrupt is pending is folded into Command({ resume }) by the server, as on the raw graph", async () => {
    const inputs = [human("Email Bob"), human("Actually, don't")];
    const sanitized = await submitted("sanitizedApproval", inputs);
    expect(sanitized).toEqual(await submitted("rawApproval", inputs));
    // The new message resumed the interrupt: it is not in the history.
    expect(sanitized.messages.map(([, content]) => content)).not.toContain("Actually, don't");
  });

  it('multitaskStrategy "rollback" while a tool runs: the second run waits for the first, as on the raw graph', async () => {
    const run = async (entry: "raw" | "sanitized") => {
      const key = `rollback-${entry}`;
      const { stops } = sharedJourney(key);
      const assistant = (
        await client.assistants.create({ graphId: "journey", config: { configurable: { journey: `${entry}:${key}` } } })
      ).assistant_id;
      const threadId = randomUUID();
      const controller = await streamController(apiUrl, assistant, threadId);
      // The first run's `search` hangs until the server ends it; the second submit goes meanwhile.
      stops.arm("mid-tool");
      const pressed = new Promise<void>((resolve) => (stops.onStop = resolve));
      const first = controller.submit(human(FIRST_QUESTION));
      await pressed;
      await controller.submit(human(FOLLOW_UP), { multitaskStrategy: "rollback" });
      await first;
      await runsEnded(client, threadId);
      controller.dispose?.();
      const state = await client.threads.getState(threadId);
      return messagesOf(state.values).map((m) => [m.type, m.content]);
    };
    const sanitized = await run("sanitized");
    expect(sanitized).toEqual(await run("raw"));
    expect(sanitized.at(-1)).toEqual(["ai", [{ type: "text", text: "Happy to help with that." }]]);
  });
});
