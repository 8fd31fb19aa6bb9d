/**
 * The graph module the Agent Server part of the soak loads, as `langgraph.json` would name it. Each export is a graph
 * factory (the server calls it per request) that builds the ToolNode agent over the real client the run names in
 * `configurable.client`, on the provider emulator at CHAOS_EMULATOR_URL, through `sanitizeGraph`, without a
 * checkpointer (the server assigns its own):
 * - `syncDurability`: `durability: "sync"`, as docs/deployment.md recommends;
 * - `asyncDurability`: LangGraph's default, what the server's run path uses when the graph sets none;
 * - `ignoresCancel`: the same, run the way the hosted Agent Server runs JS graphs (langgraphjs#2755): the run's
 *   AbortSignal never reaches the graph, so a cancelled run goes on writing while the next one starts.
 * The server's saver is kept on globalThis for the soak's raw reads (the server imports this module on its own).
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { sanitizeGraph } from "../../../src/index.js";
import { CLIENTS, chatModel, type Client } from "../../support/provider-emulator/index.js";
import { langchainTools } from "../../support/graphs/agents.js";
import { toolNodeAgent } from "../../support/graphs/wire-agents.js";
import { CHAOS_TOOLS } from "./tools.js";

/** What the module shares with the soak: the server's saver, and the runs that went on after a cancel. */
export interface ServerSide {
  saver?: BaseCheckpointSaver;
  /** By thread: the runs still going after their cancel, which resolve when they end. */
  ignoring: Map<string, Promise<void>[]>;
}

/**
 * On globalThis, since the Agent Server imports this module apart from the soak; looked up on each use, so that the
 * soak can remove it when its server phase ends (soakServer) and the next one starts afresh.
 */
export const SERVER_SIDE_KEY = Symbol.for("langgraph-checkpoint-sanitizer.chaos.server");
export const serverSide = (): ServerSide =>
  ((globalThis as Record<symbol, unknown>)[SERVER_SIDE_KEY] ??= { ignoring: new Map() }) as ServerSide;

type Compiled = ReturnType<ReturnType<typeof toolNodeAgent>["compile"]>;
type Variant = "sync" | "async" | "ignores-cancel";

const clientOf = (config: { configurable?: Record<string, unknown> } | undefined): Client => {
  const client = config?.configurable?.client;
  return CLIENTS.includes(client as Client) ? (client as Client) : "openai";
};

/** Keeps the saver the server assigns, then hands it on to the protected graph's own setter. */
function keepAssignedSaver(graph: Compiled): Compiled {
  const field = Object.getOwnPropertyDescriptor(graph, "checkpointer")!;
  Object.defineProperty(graph, "checkpointer", {
    ...field,
    set(saver: unknown) {
      if (typeof saver === "object" && saver !== null) serverSide().saver ??= saver as BaseCheckpointSaver;
      field.set!.call(graph, saver);
    },
  });
  return graph;
}

/**
 * `graph`, whose `streamEvents` (what the server runs) never sees the run's AbortSignal: the graph runs to its end
 * in the background, while the stream the server reads ends when the signal aborts, as if the run had stopped.
 */
function ignoringCancel(graph: Compiled): Compiled {
  const streamEvents = graph.streamEvents.bind(graph);
  const run = (input: unknown, options: Record<string, unknown> & { signal?: AbortSignal }) => {
    const { signal, ...rest } = options;
    const queue: unknown[] = [];
    let ended = false;
    let failure: unknown;
    let wake = () => {};
    const pumped = (async () => {
      try {
        const events = (await streamEvents(input as never, rest as never)) as AsyncIterable<unknown>;
        for await (const event of events) {
          queue.push(event);
          wake();
        }
      } catch (error) {
        failure = error;
      } finally {
        ended = true;
        wake();
      }
    })();
    const thread = String((rest.configurable as Record<string, unknown> | undefined)?.thread_id);
    return (async function* () {
      while (true) {
        if (signal?.aborted) {
          const { ignoring } = serverSide();
          ignoring.set(thread, [...(ignoring.get(thread) ?? []), pumped]);
          throw signal.reason ?? new Error("Aborted");
        }
        if (queue.length > 0) {
          yield queue.shift();
          continue;
        }
        if (ended) {
          if (failure !== undefined) throw failure;
          return;
        }
        await new Promise<void>((resolve) => {
          const aborted = () => resolve();
          wake = () => {
            signal?.removeEventListener("abort", aborted);
            resolve();
          };
          signal?.addEventListener("abort", aborted, { once: true });
        });
      }
    })();
  };
  Object.defineProperty(graph, "streamEvents", { value: run, writable: true, configurable: true });
  return graph;
}

function factory(variant: Variant) {
  const url = () => process.env.CHAOS_EMULATOR_URL ?? "http://127.0.0.1:9";
  const build = (config?: { configurable?: Record<string, unknown> }) => {
    const agent = toolNodeAgent(chatModel(clientOf(config), url()), langchainTools(CHAOS_TOOLS)).compile();
    return variant === "sync" ? agent.withConfig({ durability: "sync" }) : agent;
  };
  const protect = sanitizeGraph(build);
  return (config?: { configurable?: Record<string, unknown> }) => {
    const graph = keepAssignedSaver(protect(config) as Compiled);
    return variant === "ignores-cancel" ? ignoringCancel(graph) : graph;
  };
}

export const syncDurability = factory("sync");
export const asyncDurability = factory("async");
export const ignoresCancel = factory("ignores-cancel");
