/**
 * {@link ThreadApi} on an Agent Server, through the SDK the client itself uses: `runs.stream` on `/threads/{id}/runs/stream`
 * (agent-chat-ui, assistant-ui's react-langgraph, CopilotKit's adapter), or `@langchain/react` 1.1.0's own
 * `StreamController` (SDK 1.11.0, `run.start` on `/threads/{id}/commands`) for it and assistant-ui's react-langchain.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { RunEnd, RunOptions, Snapshot, StreamEvent, ThreadApi, WireMessage } from "./thread-api.js";
import { wire } from "./thread-api.js";
import type { ClientName } from "./clients.js";

/** How each client's runs go out on the classic route, and how its Stop reaches the server. */
const RUNS: Partial<Record<ClientName, { body: Record<string, unknown>; stop: "drop" | "cancel" }>> = {
  // `streamResumable` makes SDK 1.15 send onDisconnect "continue": the run goes on after Stop.
  "agent-chat-ui": { body: { streamSubgraphs: true, streamResumable: true, onDisconnect: "continue" }, stop: "drop" },
  "assistant-ui (react-langgraph)": { body: { onDisconnect: "cancel" }, stop: "drop" },
  // The AG-UI adapter: runs.cancel, and it reads the stream to its end.
  "CopilotKit (AG-UI)": { body: { streamSubgraphs: true }, stop: "cancel" },
};

interface ServerState {
  values: { messages?: WireMessage[] };
  next: string[];
  checkpoint: { checkpoint_id: string } | null;
  parent_checkpoint?: { checkpoint_id: string } | null;
  metadata?: { source?: string } | null;
}

/** A thread with no checkpoint yet has a null one. */
const snapshotOf = (state: ServerState): Snapshot => ({
  checkpointId: state.checkpoint?.checkpoint_id ?? "",
  parentCheckpointId: state.parent_checkpoint?.checkpoint_id,
  messages: (state.values?.messages ?? []).map(wire),
  next: state.next,
  source: state.metadata?.source ?? undefined,
});

/** The reads every client makes through the SDK the app bundles. */
function reads(client: Client, threadId: string): Pick<ThreadApi, "history" | "state" | "updateState"> {
  return {
    history: async (limit) =>
      ((await client.threads.getHistory(threadId, { limit })) as unknown as ServerState[]).map(snapshotOf),
    state: async () => snapshotOf((await client.threads.getState(threadId)) as unknown as ServerState),
    async updateState(messages, { checkpointId, asNode }) {
      const updated = await client.threads.updateState(threadId, { values: { messages }, checkpointId, asNode });
      return (updated as unknown as ServerState).checkpoint!.checkpoint_id;
    },
  };
}

function eventOf(event: string, data: unknown): StreamEvent | undefined {
  if (event === "values")
    return { mode: "values", messages: ((data as ServerState["values"]).messages ?? []).map(wire) };
  if (event === "messages") return { mode: "messages", chunk: wire((data as [WireMessage])[0]) };
  if (event !== "updates") return undefined;
  const outputs = Object.values(data as Record<string, ServerState["values"] | null>);
  return { mode: "updates", messages: outputs.flatMap((output) => (output?.messages ?? []).map(wire)) };
}

const working = (runs: { status: string }[]) => runs.some((r) => r.status === "pending" || r.status === "running");

/** Until no run of the thread is pending or running (`runs.join` may return while a run a client dropped goes on). */
export async function runsEnded(client: Client, threadId: string): Promise<void> {
  for (let waited = 0; working(await client.runs.list(threadId)); waited += 20) {
    if (waited > 60_000) throw new Error(`thread ${threadId} still had a run after a minute`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A client on the classic route: after Stop it waits for the run to end on the server before it goes on. */
export function runsThread(client: Client, assistantId: string, threadId: string, name: ClientName): ThreadApi {
  const { body, stop } = RUNS[name]!;
  let controller: AbortController | undefined;
  let runId: string | undefined;
  let stopped = false;
  /** A stopped run the server has yet to end (cancel it, or let it finish): the user types after it has. */
  let ending: Promise<unknown> | undefined;
  const cancel = () => void client.runs.cancel(threadId, runId!, false, "interrupt");
  return {
    ...reads(client, threadId),
    async run(input: unknown, { checkpointId, resume, streamMode, onEvent }: RunOptions): Promise<RunEnd> {
      await ending;
      const run = (controller = new AbortController());
      stopped = false;
      runId = undefined;
      let failed: unknown;
      try {
        const parts = (client.runs.stream as (...args: unknown[]) => AsyncIterable<{ event: string; data: unknown }>)(
          threadId,
          assistantId,
          {
            input: input as Record<string, unknown> | null | undefined,
            ...(resume === undefined ? {} : { command: { resume } }),
            ...(checkpointId === undefined ? {} : { checkpoint: { checkpoint_id: checkpointId } }),
            streamMode: streamMode.map((mode) => (mode === "messages" ? "messages-tuple" : mode)),
            ...body,
            signal: run.signal,
          },
        );
        for await (const { event, data } of parts) {
          if (event === "metadata") {
            runId = (data as { run_id: string }).run_id;
            // Stop was pressed before the client knew the run's id: it cancels the run once it does.
            if (stopped) cancel();
          } else if (event === "error") failed = data;
          else {
            const parsed = eventOf(event.split("|")[0]!, data);
            if (parsed) onEvent?.(parsed);
          }
        }
      } catch (error) {
        if (!run.signal.aborted) failed = error;
      }
      // What the page reads right after Stop may come before the server ends the run.
      if (stopped) ending = runsEnded(client, threadId);
      if (failed !== undefined && !stopped) return { ended: "failed", error: failed };
      return stopped ? { ended: "stopped" } : { ended: "done" };
    },
    stop() {
      stopped = true;
      if (stop === "drop") controller?.abort();
      else if (runId !== undefined) cancel();
    },
  };
}

/** What the tests use of SDK 1.11.0's `StreamController`. */
export interface Controller {
  activate(): void;
  submit(input: unknown, options?: { forkFrom?: string; multitaskStrategy?: string }): Promise<void>;
  stop(): Promise<void>;
  rootStore: { getSnapshot(): { messages: unknown[]; error?: unknown } };
  dispose?(): void;
}

/** `@langchain/react` 1.1.0's pinned SDK, whatever SDK the app has at its top level. */
async function reactSdk() {
  const require = createRequire(createRequire(import.meta.url).resolve("@langchain/react/package.json"));
  const load = async (path: string) =>
    (await import(pathToFileURL(require.resolve(path)).href)) as Record<string, unknown>;
  const stream = await load("@langchain/langgraph-sdk/stream");
  const sdk = await load("@langchain/langgraph-sdk/client");
  return {
    StreamController: stream.StreamController as new (options: Record<string, unknown>) => Controller,
    Client: sdk.Client as new (options: { apiUrl: string }) => unknown,
  };
}

/** `useStream`'s own controller, on `threadId` (created by its first run when the server has none). */
export async function streamController(apiUrl: string, assistantId: string, threadId: string): Promise<Controller> {
  const { StreamController, Client: ReactClient } = await reactSdk();
  const controller = new StreamController({ assistantId, client: new ReactClient({ apiUrl }), threadId });
  controller.activate();
  return controller;
}

/**
 * `useStream`'s `StreamController`: `submit` is `run.start` (a fork's checkpoint as `forkFrom`), Stop is its `stop()`
 * (`runs.cancel`). The view is its store's messages once the run ends.
 */
export async function controllerThread(client: Client, apiUrl: string, assistantId: string, threadId: string) {
  const controller = await streamController(apiUrl, assistantId, threadId);
  let stopping: Promise<void> | undefined;
  const api: ThreadApi = {
    ...reads(client, threadId),
    async run(input, { checkpointId, onEvent }) {
      stopping = undefined;
      await controller.submit(input ?? null, checkpointId === undefined ? undefined : { forkFrom: checkpointId });
      // `submit` returns once the server took the run; the run ends when the thread is free again.
      await runsEnded(client, threadId);
      if (stopping) await stopping;
      const { messages, error } = controller.rootStore.getSnapshot();
      onEvent?.({ mode: "values", messages: messages.map((m) => wire(m as WireMessage)) });
      if (stopping) return { ended: "stopped" };
      return error === undefined ? { ended: "done" } : { ended: "failed", error };
    },
    stop() {
      stopping = controller.stop();
    },
  };
  return { api, dispose: () => controller.dispose?.() };
}
