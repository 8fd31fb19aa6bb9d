/**
 * `npm run serve:example` as a user starts it: a separate process, configured
 * by environment variables, on every backend available. The real SDK client
 * presses stop while the search tool runs, then sends the next message.
 */
import { Client } from "@langchain/langgraph-sdk";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { spawnUntilReady, stopAll } from "../support/servers/processes.js";
import { deleteKeys, unique } from "../support/savers/savers.js";
import { POSTGRES_URL, REDIS_URL, serviceAvailable } from "../support/servers/services.js";

/** Starts the example with `env`; resolves with its URL once it prints its listening line. */
async function startExample(env: Record<string, string>, started: ChildProcess[]): Promise<string> {
  const ready = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
  return (
    await spawnUntilReady(
      "npm",
      ["run", "--silent", "serve:example"],
      { env: { ...process.env, ...env }, ready },
      started,
    )
  )[1]!;
}

interface Backend {
  name: string;
  available: boolean;
  /** The environment that selects this backend in its own namespace, and how to remove that namespace. */
  setup(): { env: Record<string, string>; cleanup(): Promise<void> };
}

const BACKENDS: Backend[] = [
  {
    name: "sqlite (the default)",
    available: true,
    setup() {
      const dir = mkdtempSync(join(tmpdir(), "sanitizer-example-"));
      return {
        env: { SQLITE_PATH: join(dir, "threads.sqlite") },
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: "postgres",
    available: await serviceAvailable("postgres"),
    setup() {
      const schema = `sanitizer_example_${unique()}`;
      return {
        env: { CHECKPOINTER: "postgres", POSTGRES_URL, POSTGRES_SCHEMA: schema },
        cleanup: async () => {
          const client = new pg.Client({ connectionString: POSTGRES_URL });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await client.end();
        },
      };
    },
  },
  {
    name: "redis",
    available: await serviceAvailable("redis"),
    setup() {
      const prefix = `sanitizer-example-${unique()}`;
      return {
        env: { CHECKPOINTER: "redis", REDIS_URL, REDIS_PREFIX: prefix },
        cleanup: async () => {
          const client = new Redis(REDIS_URL);
          await deleteKeys(client, prefix);
          await client.quit();
        },
      };
    },
  },
];

describe("npm run serve:example", () => {
  const started: ChildProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await stopAll(started);
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });

  it.each(BACKENDS.filter((b) => b.available))(
    "serves on $name: a thread stopped mid-tool takes the next message",
    { timeout: 60_000 },
    async (backend) => {
      const { env, cleanup } = backend.setup();
      cleanups.push(cleanup);
      const url = await startExample({ ...env, PORT: "0", SEARCH_DELAY_MS: "400" }, started);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:/);
      const client = new Client({ apiUrl: url });
      const { thread_id } = await client.threads.create();

      // Stop as soon as the model's tool call is in the state, while the search tool runs.
      const stop = new AbortController();
      const first = (async () => {
        for await (const part of client.runs.stream(thread_id, "agent", {
          input: { messages: [{ type: "human", content: "Weather in Paris?" }] },
          streamMode: ["values"],
          signal: stop.signal,
          onDisconnect: "cancel",
        })) {
          const messages = (part.data as { messages?: { tool_calls?: unknown[] }[] }).messages;
          if (part.event === "values" && messages?.at(-1)?.tool_calls?.length) stop.abort();
        }
      })();
      // Aborted between parts, the SDK's stream ends or rejects with an AbortError; either way the request is gone.
      await first.catch((error: Error) => expect(error.name).toBe("AbortError"));
      expect(stop.signal.aborted).toBe(true);
      // The server's run ends at the disconnect; give it the search delay to prove nothing lands later.
      await new Promise((resolve) => setTimeout(resolve, 600));

      const parts: { event: string; data: unknown }[] = [];
      for await (const part of client.runs.stream(thread_id, "agent", {
        input: { messages: [{ type: "human", content: "And in Seoul?" }] },
        streamMode: ["values"],
      }))
        parts.push(part);
      expect(parts.filter((p) => p.event === "error")).toEqual([]);
      const messages = (parts.at(-1)!.data as { messages: { type: string; content: string }[] }).messages;
      expect(messages.at(-1)).toMatchObject({
        type: "ai",
        content: 'Here is what I found: three results for "And in Seoul?"',
      });
      // The stopped search never reported a result; the sanitizer's placeholder stands in its place.
      expect(messages.filter((m) => m.type === "tool").map((m) => m.content)).toEqual([
        "[No result was recorded for this tool call.]",
        'three results for "And in Seoul?"',
      ]);
    },
  );
});
