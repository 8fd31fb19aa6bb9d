// The middleware's repair of a model request, in the LangSmith trace of that model call: the app traces with
// LangSmith's client, which here posts to a local endpoint that records what it receives (no network beyond
// 127.0.0.1).
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { HumanMessage } from "@langchain/core/messages";
import { LangChainTracer } from "@langchain/core/tracers/tracer_langchain";
import { MemorySaver } from "@langchain/langgraph";
import { BasicTracerProvider, InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { Client } from "langsmith";
import { LangSmithOTLPSpanProcessor } from "langsmith/experimental/otel/processor";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer } from "../../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../../src/middleware/index.js";
import { buildAgent, keepFirstAndLastThree, threadConfig } from "../../support/graphs/agents.js";
import { FIRST_QUESTION, agentModel } from "../../support/graphs/scenarios.js";

/** A run as LangSmith receives it: created by a POST, completed by a PATCH. */
interface RecordedRun {
  id: string;
  name?: string;
  parent_run_id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  extra?: { metadata?: Record<string, unknown> };
}

/** A LangSmith endpoint on 127.0.0.1 that keeps every run posted or patched, by id. */
function localLangSmith() {
  const runs = new Map<string, RecordedRun>();
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const patched = /^\/runs\/([^/?]+)/.exec(request.url ?? "");
      if (request.method === "POST" && request.url === "/runs") {
        const run = JSON.parse(body) as RecordedRun;
        runs.set(run.id, { ...runs.get(run.id), ...run });
      } else if (request.method === "PATCH" && patched) {
        runs.set(patched[1]!, { ...runs.get(patched[1]!)!, ...(JSON.parse(body) as Partial<RecordedRun>) });
      }
      // Anything else (the client asks for /info on its own) gets an empty answer.
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return {
    runs,
    start: () => new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(url()))),
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
  function url() {
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
}

const langsmith = localLangSmith();
let client: Client;
beforeAll(async () => {
  client = new Client({ apiUrl: await langsmith.start(), apiKey: "local", autoBatchTracing: false });
});
afterAll(() => langsmith.stop());

describe("the middleware in LangSmith", () => {
  it("a repaired request shows as a SanitizeMessagesMiddleware run of that model call, with codes and no content", async () => {
    const agent = buildAgent("createAgent", {
      model: agentModel("bedrock"),
      checkpointer: new MemorySaver(),
      middleware: [keepFirstAndLastThree, sanitizeMessagesMiddleware()],
    });
    const config = { ...threadConfig("t"), callbacks: [new LangChainTracer({ client: client as never })] };
    await agent.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config);
    await agent.invoke({ messages: [new HumanMessage("Thanks, and tomorrow?")] }, config);
    await awaitAllCallbacks();

    const runs = [...langsmith.runs.values()];
    const repairRuns = runs.filter((r) => r.name === "SanitizeMessagesMiddleware");
    // The trim cut a tool pair on one request, the last model call of the second turn: its result was an orphan.
    expect(repairRuns).toHaveLength(1);
    const [repairRun] = repairRuns;
    const modelCall = runs.find((r) => r.id === repairRun!.parent_run_id)!;
    expect(modelCall.name).toBe("model_request");
    // Beside the chat model's own run of that call (LangChain passes that run the node's config, not the request).
    const siblings = runs.filter((r) => r.parent_run_id === modelCall.id).map((r) => r.name);
    expect(siblings).toEqual(expect.arrayContaining(["SanitizeMessagesMiddleware", "StrictChatModel"]));
    expect(repairRun!.inputs).toEqual({ provider: "bedrock", model: null, codes: ["D"] });
    expect(repairRun!.extra?.metadata).toMatchObject({ checkpoint_sanitizer_codes: ["D"] });
    expect(repairRun!.outputs).toEqual({
      repairs: expect.arrayContaining([expect.objectContaining({ code: "D", action: "removed" })]),
    });
    expect(JSON.stringify(repairRun)).not.toMatch(/Paris|Seoul|tomorrow/);
  });
});

describe("the checkpointer's spans and LangSmith", () => {
  it("LangSmith's own span processor (initializeOTEL's) drops them: docs/observability.md sends them by exporter", async () => {
    const exporter = new InMemorySpanExporter();
    const kept = () => exporter.getFinishedSpans().map((s) => s.name);
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new LangSmithOTLPSpanProcessor(exporter)] });
    const checkpointer = new SanitizingCheckpointer(new MemorySaver(), { telemetry: { tracerProvider } });
    await checkpointer.getTuple({ configurable: { thread_id: "t" } });
    // The processor keeps what LangSmith's own code marks; a span so marked shows the exporter is reached.
    tracerProvider
      .getTracer("app")
      .startSpan("marked", { attributes: { "langsmith.traceable": "true" } })
      .end();
    await tracerProvider.forceFlush();
    expect(kept()).toEqual(["marked"]);
    await tracerProvider.shutdown();
  });
});
