/**
 * The chat page and the Agent Server routes it talks to, from one process on 127.0.0.1: the page (page/, React
 * with `useStream` from `@langchain/langgraph-sdk/react`) is built with Vite into memory at startup, and every
 * other path goes to the embed server of `@langchain/langgraph-api`. Same origin, so the page needs no CORS.
 *
 * Four assistants, one picked by the page's `?assistant=` query parameter, so raw and sanitized can be compared:
 *
 *   agent         the example agent (a strict Bedrock-like model and a slow `search` tool), through sanitizeGraph
 *   agent-raw     the same agent, raw: after a stopped run the next message fails with the provider's error
 *   approval      an agent whose tool asks for approval with `interrupt()`, through sanitizeGraph
 *   approval-raw  the same, raw
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { MemorySaver } from "@langchain/langgraph";
import { createEmbedServer } from "@langchain/langgraph-api/experimental/embed";
import { build, type Rolldown } from "vite";
import { sanitizeGraph } from "../../src/index.js";
import { approvalAgent } from "../../test/support/graphs/approval-agent.js";
import { exampleAgent } from "../agent-server/agent.js";
import { InMemoryThreadStore } from "../agent-server/thread-store.js";

type Graphs = Parameters<typeof createEmbedServer>[0]["graph"];
type Graph = Graphs[string];

/** The assistants by id; each graph is compiled without a checkpointer (the server assigns its own). */
export function chatAssistants({ searchDelayMs = 3000 } = {}): Graphs {
  const approval = () => approvalAgent().compile() as unknown as Graph;
  return {
    // agent-chat-ui hides messages whose id starts so: on its page the sanitizer's own messages are not shown.
    agent: sanitizeGraph(exampleAgent({ searchDelayMs }), { idPrefix: "do-not-render-" }) as unknown as Graph,
    "agent-raw": exampleAgent({ searchDelayMs }) as unknown as Graph,
    approval: sanitizeGraph(approval()),
    "approval-raw": approval(),
  };
}

interface StaticFile {
  body: string | Uint8Array<ArrayBuffer>;
  type: string;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
};

/** Builds page/ with Vite, in memory: its files by URL path. */
export async function buildPage(): Promise<Map<string, StaticFile>> {
  const result = await build({
    root: fileURLToPath(new URL("page", import.meta.url)),
    configFile: false,
    logLevel: "warn",
    oxc: { jsx: { runtime: "automatic", importSource: "react" } },
    build: {
      write: false,
      chunkSizeWarningLimit: 2000,
      rolldownOptions: {
        // The SDK's React modules start with "use client", which only matters to server components.
        onwarn: (warning, warn) => void (warning.code === "MODULE_LEVEL_DIRECTIVE" || warn(warning)),
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const files = new Map<string, StaticFile>();
  for (const item of outputs.flatMap((output) => output.output)) {
    const extension = item.fileName.split(".").at(-1)!;
    const body =
      item.type === "chunk" ? item.code : typeof item.source === "string" ? item.source : new Uint8Array(item.source);
    files.set(`/${item.fileName}`, { body, type: TYPES[extension] ?? "application/octet-stream" });
  }
  return files;
}

export interface ChatServerOptions {
  /** Default 0: a free port. */
  port?: number;
  /** How long the `search` tool works, time to press Stop. Default 3000. */
  searchDelayMs?: number;
}

export interface ChatServer {
  /** `http://127.0.0.1:<port>/`: the page, and the API `useStream` talks to. */
  url: string;
  close(): Promise<void>;
}

/** Builds the page and serves it with the assistants on 127.0.0.1 only (there is no auth in front). */
export async function startChatServer({ port = 0, searchDelayMs }: ChatServerOptions = {}): Promise<ChatServer> {
  const files = await buildPage();
  const api = createEmbedServer({
    graph: chatAssistants({ searchDelayMs }),
    threads: new InMemoryThreadStore(),
    checkpointer: new MemorySaver(),
  });
  const server = serve({
    hostname: "127.0.0.1",
    port,
    fetch: (request) => {
      const { pathname } = new URL(request.url);
      const file = files.get(pathname === "/" ? "/index.html" : pathname);
      if (request.method === "GET" && file) return new Response(file.body, { headers: { "content-type": file.type } });
      return api.fetch(request);
    },
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Open SSE streams would otherwise keep it from closing.
        server.closeAllConnections();
      }),
  };
}
