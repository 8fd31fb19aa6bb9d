/**
 * `langgraphjs dev` (the `langgraph dev` of `@langchain/langgraph-cli`) as users start it, on the example
 * project examples/langgraph-dev, whose graph is protected with `sanitizeGraph`: the SDK client cancels a run
 * mid-tool through the API, and the next message on the thread completes; a thread whose run is still working
 * reads as stored.
 */
import { Client } from "@langchain/langgraph-sdk";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKER_PRESETS } from "../../src/index.js";
import { spawnUntilReady, stopAll } from "../support/servers/processes.js";
import { FIRST_QUESTION } from "../support/graphs/scenarios.js";
import { langgraphCli, serverPackageVersion } from "./server-lines.js";
import {
  cancelledThread,
  collect,
  errorsOf,
  finalMessages,
  firstTurnMidTool,
  human,
  messagesOf,
} from "../support/servers/sdk.js";

const example = fileURLToPath(new URL("../../examples/langgraph-dev", import.meta.url));

/**
 * The example's langgraph.json in a folder of this process's own inside the example's git-ignored `.langgraph_api`,
 * its graph paths rewritten to reach the example's files: the dev server keeps its threads, runs and checkpoints in
 * `.langgraph_api` beside the config it is given, and the two server lines run this file at the same time. Each
 * server starts on an empty store, and the folder goes when the file ends.
 */
function projectOfOwn(): string {
  mkdirSync(join(example, ".langgraph_api"), { recursive: true });
  const project = mkdtempSync(join(example, ".langgraph_api", "test-"));
  const config = JSON.parse(readFileSync(join(example, "langgraph.json"), "utf8")) as {
    graphs: Record<string, string>;
  };
  for (const [id, spec] of Object.entries(config.graphs)) config.graphs[id] = relative(project, join(example, spec));
  writeFileSync(join(project, "langgraph.json"), JSON.stringify(config));
  return project;
}

const project = projectOfOwn();
const started: ChildProcess[] = [];
afterAll(async () => {
  await stopAll(started);
  rmSync(project, { recursive: true, force: true });
});

let client: Client;
beforeAll(async () => {
  const env = {
    ...process.env,
    // Offline: the CLI's one request of its own is a usage ping, which this variable turns off. Tracing stays off
    // (no LangSmith calls), and --studio-url keeps the printed Studio link local; --no-browser opens nothing.
    LANGGRAPH_CLI_NO_ANALYTICS: "1",
    LANGSMITH_TRACING: "false",
    LANGCHAIN_TRACING_V2: "false",
    BROWSER: "none",
    // Its ready line is an info line: logged whatever level the machine's environment sets.
    LOG_LEVEL: "info",
    // Long enough to cancel the first search, short enough for the next turn's.
    SEARCH_DELAY_MS: "1500",
  };
  const args = ["dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", "0", "--n-jobs-per-worker", "2"];
  const [, host] = await spawnUntilReady(
    langgraphCli(),
    [...args, "--studio-url", "http://127.0.0.1", "--config", join(project, "langgraph.json")],
    { env, cwd: project, ready: /Server running at (127\.0\.0\.1:\d+)/ },
    started,
  );
  client = new Client({ apiUrl: `http://${host}` });
});

describe(`langgraphjs dev ${serverPackageVersion("cli")} on examples/langgraph-dev`, () => {
  it("a run cancelled mid-tool through the API leaves a thread that takes the next message", async () => {
    const thread_id = await cancelledThread(client, "agent");
    const next = client.runs.stream(thread_id, "agent", { input: human("And in Seoul?"), streamMode: ["values"] });
    const parts = await collect(next);
    expect(errorsOf(parts)).toEqual([]);
    expect(finalMessages(parts).map((m) => [m.type, m.content])).toEqual([
      ["human", FIRST_QUESTION],
      ["ai", "Let me look that up. "],
      // The cancelled search's placeholder and the closing reply the sanitizer added, then the new turn.
      ["tool", MARKER_PRESETS.en.missingToolResult],
      ["ai", MARKER_PRESETS.en.missingReplyAfterTools],
      ["human", "And in Seoul?"],
      ["ai", "Let me look that up. "],
      ["tool", 'three results for "And in Seoul?"'],
      ["ai", 'Here is what I found: three results for "And in Seoul?"'],
    ]);
  });

  it("getState of a thread whose run is still working reads as stored: no placeholder for the running tool", async () => {
    const { thread_id, run_id, rest } = await firstTurnMidTool(client, "agent");
    try {
      const state = await client.threads.getState(thread_id);
      expect(state.next).toEqual(["tools"]);
      expect(messagesOf(state.values).map((m) => [m.type, m.content])).toEqual([
        ["human", FIRST_QUESTION],
        ["ai", "Let me look that up. "],
      ]);
    } finally {
      await client.runs.cancel(thread_id, run_id, true, "interrupt");
      await collect(rest);
    }
  });
});
