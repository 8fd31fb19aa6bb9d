/**
 * The LangGraph Agent Server routes (threads, runs, SSE streams) from
 * `@langchain/langgraph-api`'s embed server, served on loopback, with the
 * checkpointer of your choice, which the server assigns to each graph.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createEmbedServer, type ThreadSaver } from "@langchain/langgraph-api/experimental/embed";
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { InMemoryThreadStore } from "./thread-store.js";

type Graphs = Parameters<typeof createEmbedServer>[0]["graph"];

export interface AgentServerOptions {
  /** Graphs by assistant id, compiled without a checkpointer (the server sets it). */
  graphs: Graphs;
  checkpointer: BaseCheckpointSaver;
  threads?: ThreadSaver;
  /** Default 0: a free port. */
  port?: number;
}

export interface AgentServer {
  /** `http://127.0.0.1:<port>`, for `new Client({ apiUrl })`. */
  url: string;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 only; it is not meant to face the internet without auth in front. */
export async function startAgentServer({
  graphs,
  checkpointer,
  threads = new InMemoryThreadStore(),
  port = 0,
}: AgentServerOptions): Promise<AgentServer> {
  const app = createEmbedServer({ graph: graphs, threads, checkpointer });
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Open SSE streams would otherwise keep it from closing.
        server.closeAllConnections();
      }),
  };
}
