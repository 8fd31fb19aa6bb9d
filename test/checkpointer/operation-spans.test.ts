/**
 * The checkpointer's spans on every backend (docs/observability.md#spans): a real turn and its history through
 * `sanitizeGraph`, recorded by the OpenTelemetry SDK's in-memory exporter; and a store outage on servers of the test's
 * own, where the failing call's span carries the error the app gets. The options and the span of each operation in
 * detail: test/unit/telemetry/spans.test.ts.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { emptyCheckpoint, uuid6, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer, sanitizeGraph } from "../../src/index.js";
import { FastPostgresSaver, PostgresUnavailableError } from "../../src/postgres/index.js";
import { IORedisSaver, RedisUnavailableError, resilientRedisOptions } from "../../src/redis/index.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { agentModel, cancelFirstTurn, FIRST_QUESTION, LOOKUP_RESULT } from "../support/graphs/scenarios.js";
import { fastPostgresFactory, postgresFactory, saverFactories, saverPerTest } from "../support/savers/savers.js";
import { hasPostgresBinaries, startPostgres, type PostgresServer } from "../support/servers/postgres-server.js";
import { hasRedisBinary, startRedis, type RedisServer } from "../support/servers/redis-servers.js";
import { inMemoryTraces, leaked } from "../support/telemetry.js";

const A = (name: string) => `checkpoint_sanitizer.${name}`;
const config = { configurable: { thread_id: "t" }, durability: "sync" as const };
const tools = { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT };
const FACTORIES = saverFactories.includes(postgresFactory) ? [...saverFactories, fastPostgresFactory] : saverFactories;

const outageServers = { redis: hasRedisBinary(), postgres: hasPostgresBinaries() };
if (!(outageServers.redis && outageServers.postgres)) {
  const missing = "install redis-server and postgresql (its initdb and pg_ctl)";
  if (process.env.CI === "true") throw new Error(`The outage spans tests need servers of their own: ${missing}.`);
  console.warn(`Skipping some outage spans tests: ${missing} to run them.`);
}

let traces: ReturnType<typeof inMemoryTraces>;
beforeAll(() => {
  traces = inMemoryTraces();
});
afterAll(() => traces.shutdown());

/** The spans finished while `during` ran. */
async function spansOf(during: () => Promise<unknown>): Promise<ReadableSpan[]> {
  const before = traces.spans().length;
  await during();
  return traces.spans().slice(before);
}

const named = (spans: readonly ReadableSpan[], operation: string) => spans.filter((s) => s.name === A(operation));

describe.each(FACTORIES)("on $name", (factory) => {
  const open = saverPerTest(factory);

  it("a turn on a cancelled thread and its history: a span per operation under the app's span, no content", async () => {
    const saver = await open();
    await cancelFirstTurn(saver, "during-tools", "t");
    const graph = sanitizeGraph(reactGraph({ model: agentModel("bedrock"), tools }).compile(saver));
    let messages: BaseMessage[] = [];
    const spans = await spansOf(() =>
      traces.tracer.startActiveSpan("POST /threads/t/runs", async (span) => {
        ({ messages } = await graph.invoke({ messages: [new HumanMessage("Thanks, and tomorrow?")] }, config));
        for await (const state of graph.getStateHistory(config, { limit: 3 })) expect(state).toBeDefined();
        span.end();
      }),
    );
    const app = spans.find((s) => s.name === "POST /threads/t/runs")!;
    const ours = spans.filter((s) => s !== app);
    expect(new Set(ours.map((s) => s.name))).toEqual(
      new Set(["getTuple", "put", "putWrites", "list"].map((operation) => A(operation))),
    );
    for (const span of ours) {
      expect(span.parentSpanContext?.spanId).toBe(app.spanContext().spanId);
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toMatchObject({ [A("saver")]: saver.constructor.name, [A("thread_id")]: "t" });
    }
    expect(named(ours, "getTuple")[0]!.attributes).toMatchObject({
      [A("checkpoints")]: 1,
      [A("messages")]: 5,
      [A("read.patterns")]: "B,C",
      [A("repair.count")]: 3,
    });
    expect(named(ours, "put").at(-1)!.attributes).toMatchObject({ [A("source")]: "loop", [A("messages")]: 7 });
    expect(named(ours, "putWrites").every((s) => (s.attributes[A("writes")] as number) > 0)).toBe(true);
    expect(named(ours, "list")[0]!.attributes).toMatchObject({
      [A("list.limit")]: 3,
      [A("list.complete")]: true,
      [A("checkpoints")]: 3,
    });
    expect(messages.at(-1)!.content).toBe("Happy to help with that.");
    const texts = [FIRST_QUESTION, "Thanks, and tomorrow?", "Paris: 15°C", LOOKUP_RESULT, "Happy to help", "Paris"];
    expect(leaked(spans, texts)).toEqual([]);
  });
});

/** The one span of `operation`, failed with `error` as the app got it. */
function expectFailedSpan(spans: readonly ReadableSpan[], operation: string, error: Error): ReadableSpan {
  const [span, ...others] = named(spans, operation);
  expect(others).toEqual([]);
  expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: error.message });
  expect(span!.attributes["error.type"]).toBe(error.constructor.name);
  expect(
    span!.events.map((e) => [e.name, e.attributes?.["exception.type"], e.attributes?.["exception.message"]]),
  ).toEqual([["exception", error.name, error.message]]);
  return span!;
}

const checkpoint = () => ({ ...emptyCheckpoint(), id: uuid6(-1) });
const metadata = { source: "loop" as const, step: 0, parents: {} };

/** A read and a write through the wrapper while the store is down: each rejects, and its span says why. */
async function expectOutageSpans(saver: BaseCheckpointSaver, errorClass: new (...args: never[]) => Error) {
  const checkpointer = new SanitizingCheckpointer(saver);
  const written = checkpoint();
  let read: unknown;
  let write: unknown;
  const spans = await spansOf(async () => {
    read = await checkpointer.getTuple({ configurable: { thread_id: "down" } }).catch((e: unknown) => e);
    write = await checkpointer
      .put({ configurable: { thread_id: "down", checkpoint_ns: "" } }, written, metadata, {})
      .catch((e: unknown) => e);
  });
  expect(read).toBeInstanceOf(errorClass);
  expect(write).toBeInstanceOf(Error);
  expect(expectFailedSpan(spans, "getTuple", read as Error).attributes).toMatchObject({ [A("thread_id")]: "down" });
  // What the failed write was: the checkpoint it tried to store.
  expect(expectFailedSpan(spans, "put", write as Error).attributes).toMatchObject({
    [A("checkpoint_id")]: written.id,
    [A("source")]: "loop",
  });
}

describe.runIf(outageServers.redis)("IORedisSaver while Redis is down", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.close());

  it("the failing read's and write's spans carry the RedisUnavailableError the app gets", async () => {
    const client = new Redis(server.url, resilientRedisOptions({ outageMs: 300 }));
    client.on("error", () => {}); // reconnection attempts report here; the calls are asserted
    await client.ping();
    await server.stop();
    try {
      await expectOutageSpans(new IORedisSaver(client, { keyPrefix: `spans-${uuid6(-1)}` }), RedisUnavailableError);
    } finally {
      client.disconnect();
      await server.start();
    }
  });
});

describe.runIf(outageServers.postgres)("Postgres savers while Postgres is down", () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url });
    pool.on("error", () => {}); // idle connections ended by the stop report here; the calls are asserted
  });
  afterAll(async () => {
    await pool?.end();
    await server?.close();
  });

  it("FastPostgresSaver and the official PostgresSaver: the failing calls' spans carry the error the app gets", async () => {
    const fast = new FastPostgresSaver(pool, undefined, { schema: "fast" });
    const official = new PostgresSaver(pool, undefined, { schema: "official" });
    await fast.setup();
    await official.setup();
    await server.stop("immediate");
    try {
      await expectOutageSpans(fast, PostgresUnavailableError);
      // node-postgres's own error (ECONNREFUSED), as the official saver alone throws it.
      await expectOutageSpans(official, Error);
    } finally {
      await server.start();
    }
  });
});
