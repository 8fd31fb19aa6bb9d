// One thread, many processes: two real Node processes, each with its own graph on one shared store (a SQLite file,
// Postgres, Redis), as replicas behind a load balancer or an API process beside a worker. Whatever one process left
// (a pause at a breakpoint or an approval, a run still working, a crash), the other reads, edits and resumes it
// exactly as on the raw saver, and takes a new message after a crash, which the raw saver cannot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceAvailable } from "../support/servers/services.js";
import { createStore, type StoreKind } from "../support/savers/stores.js";
import { AppProcess } from "./app-process.js";

type Mode = "raw" | "sanitized";
const MODES: readonly Mode[] = ["raw", "sanitized"];

const BACKENDS: { name: string; kind: StoreKind }[] = [
  { name: "a SQLite file", kind: "sqlite" },
  ...((await serviceAvailable("postgres")) ? [{ name: "Postgres", kind: "postgres" as const }] : []),
  ...((await serviceAvailable("redis")) ? [{ name: "Redis (IORedisSaver)", kind: "redis" as const }] : []),
];

/** The results of the tools that ran, from the state a process returned (messages as serialized). */
const toolResults = (state: unknown) =>
  (state as { messages: { kwargs: { tool_call_id?: string; content: string } }[] }).messages
    .filter((m) => m.kwargs.tool_call_id !== undefined)
    .map((m) => m.kwargs.content);

describe.each(BACKENDS)("two app processes on $name", (backend) => {
  let store: Awaited<ReturnType<typeof createStore>>;
  const apps = {} as Record<Mode, { a: AppProcess; b: AppProcess }>;
  beforeAll(async () => {
    store = await createStore(backend.kind);
    for (const mode of MODES) {
      const [a, b] = await Promise.all([AppProcess.start(store.env, mode), AppProcess.start(store.env, mode)]);
      apps[mode] = { a, b };
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(MODES.flatMap((mode) => [apps[mode]?.a.stop(), apps[mode]?.b.stop()]));
    await store?.remove();
  });

  /** Runs `scenario` in each mode on its own thread; what each mode observed. */
  async function compare<T>(
    name: string,
    scenario: (apps: { a: AppProcess; b: AppProcess }, thread: string) => Promise<T>,
  ) {
    const seen = {} as Record<Mode, T>;
    for (const mode of MODES) seen[mode] = await scenario(apps[mode], `${mode}-${name}`);
    return seen;
  }

  /** B reads the paused thread, edits the waiting call, and approves with `invoke(null)`. */
  const editAndApprove = async (b: AppProcess, graph: "plain" | "compiled-breakpoint", thread: string) => {
    const paused = await b.call({ op: "getState", graph, thread });
    await b.call({ op: "editCall", graph, thread, city: "Lyon" });
    const approved = await b.call({ op: "invoke", graph, thread, input: null });
    const stored = await b.call({ op: "stored", thread });
    return { paused, approved, stored };
  };

  it("a breakpoint given on the run in A: B reads, edits and approves it as raw; the tool runs with the edit", async () => {
    const seen = await compare("run-breakpoint", async ({ a, b }, thread) => {
      await a.call({ op: "invoke", graph: "plain", thread, input: "first", interruptBefore: ["tools"] });
      return editAndApprove(b, "plain", thread);
    });
    expect(seen.sanitized).toEqual(seen.raw);
    expect(toolResults(seen.sanitized.approved)).toEqual(["Lyon: 15°C", expect.stringContaining("Seoul")]);
    expect(seen.sanitized.stored).toMatchObject({ synthetic: 0 });
  });

  it("a breakpoint compiled into the graph: B reads, edits and approves it as raw", async () => {
    const seen = await compare("compiled-breakpoint", async ({ a, b }, thread) => {
      await a.call({ op: "invoke", graph: "compiled-breakpoint", thread, input: "first" });
      return editAndApprove(b, "compiled-breakpoint", thread);
    });
    expect(seen.sanitized).toEqual(seen.raw);
    expect(toolResults(seen.sanitized.approved)[0]).toBe("Lyon: 15°C");
    expect(seen.sanitized.stored).toMatchObject({ synthetic: 0 });
  });

  it("an interrupt() approval in A: B reads it and resumes it with Command({ resume }) as raw", async () => {
    const seen = await compare("approval", async ({ a, b }, thread) => {
      await a.call({ op: "invoke", graph: "approval", thread, input: "first" });
      const paused = await b.call({ op: "getState", graph: "approval", thread });
      const resumed = await b.call({ op: "invoke", graph: "approval", thread, input: { resume: "yes" } });
      return { paused, resumed, stored: await b.call({ op: "stored", thread }) };
    });
    expect(seen.sanitized).toEqual(seen.raw);
    expect(toolResults(seen.sanitized.resumed)[0]).toBe("Paris: yes");
    expect(seen.sanitized.stored).toMatchObject({ synthetic: 0 });
  });

  it("a run still working in A reads as stored from B, and A's run then completes as raw", async () => {
    const seen = await compare("in-flight", async ({ a, b }, thread) => {
      await a.call({ op: "start", graph: "plain", thread });
      const working = await b.call({ op: "getState", graph: "plain", thread });
      await a.call({ op: "release" });
      // A's run ends on its own: B waits until the store holds its final reply (the question, the call, two
      // results, the reply), then reads the thread.
      for (let i = 0; i < 100; i++) {
        const { messages } = (await b.call({ op: "stored", thread })) as { messages: unknown[] };
        if (messages.length === 5) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const finished = await b.call({ op: "getState", graph: "plain", thread });
      return { working, finished, stored: await b.call({ op: "stored", thread }) };
    });
    expect(seen.sanitized).toEqual(seen.raw);
    expect((seen.sanitized.working as { next: string[] }).next).toEqual(["tools"]);
    expect(seen.sanitized.stored).toMatchObject({ synthetic: 0 });
  });

  it("A killed mid-tool: B's new message is rejected by the strict provider raw, and answered through the sanitizer", async () => {
    const seen = await compare("killed", async (processes, thread) => {
      await processes.a.call({ op: "start", graph: "plain", thread });
      await processes.a.stop("SIGKILL");
      const mode = thread.startsWith("raw") ? "raw" : "sanitized";
      const readAfter = await processes.b.call({ op: "getState", graph: "plain", thread });
      const next = await processes.b.send({ op: "invoke", graph: "plain", thread, input: "next" });
      processes.a = await AppProcess.start(store.env, mode);
      return { readAfter, next };
    });
    // Nothing in the store tells a crash from a run still working elsewhere: the read keeps the tail as raw does.
    expect(seen.sanitized.readAfter).toEqual(seen.raw.readAfter);
    expect(seen.raw.next).toMatchObject({ ok: false, error: expect.stringContaining("bedrock 400") });
    expect(seen.sanitized.next).toMatchObject({ ok: true });
  });

  it("A restarted between the pause and the approval: it reads, edits and approves as raw", async () => {
    const seen = await compare("restart", async (processes, thread) => {
      const mode = thread.startsWith("raw") ? "raw" : "sanitized";
      await processes.a.call({ op: "invoke", graph: "plain", thread, input: "first", interruptBefore: ["tools"] });
      await processes.a.stop("SIGTERM");
      processes.a = await AppProcess.start(store.env, mode);
      return editAndApprove(processes.a, "plain", thread);
    });
    expect(seen.sanitized).toEqual(seen.raw);
    expect(toolResults(seen.sanitized.approved)[0]).toBe("Lyon: 15°C");
    expect(seen.sanitized.stored).toMatchObject({ synthetic: 0 });
  });
});
