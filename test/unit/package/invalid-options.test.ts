// One error for a bad option of any entry point: InvalidOptionError (a TypeError), whose message starts with the
// option's name, thrown where the options come in. A read throws it only for the per-call `configurable.tailPolicy`.
import { MemorySaver, MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  InvalidOptionError,
  repairMessages,
  sanitizeGraph,
  SanitizingCheckpointer,
  type SanitizingCheckpointerOptions,
} from "../../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../../src/middleware/index.js";
import { FastPostgresSaver } from "../../../src/postgres/index.js";
import { IORedisSaver, resilientClusterOptions, resilientRedisOptions } from "../../../src/redis/index.js";
import { thrownBy } from "../../support/thrown.js";

const compiledGraph = () =>
  new StateGraph(MessagesAnnotation)
    .addNode("model", () => ({}))
    .addEdge("__start__", "model")
    .compile();

/** The options every entry point that repairs takes, each with a value it does not take. */
const REPAIR_OPTIONS: [option: string, options: Record<string, unknown>][] = [
  ["provider", { provider: "azure" }],
  ["model", { model: " " }],
  ["store", { store: "no" }],
  ["markers", { markers: "fr" }],
  ["markers.missingRepl", { markers: { missingRepl: "…" } }],
  ["markers.missingReply", { markers: { missingReply: "" } }],
  ["bridgeRole", { bridgeRole: "user" }],
  ["idPrefix", { idPrefix: "hidden" }],
  ["idPrefix", { idPrefix: "do not render-" }],
];

/** The checkpointer's own, which `sanitizeGraph` takes too. */
const CHECKPOINTER_OPTIONS: [option: string, options: Record<string, unknown>][] = [
  ...REPAIR_OPTIONS,
  ["onRepair", { onRepair: "log" }],
  ["telemetry.meterProvider", { telemetry: { meterProvider: {} } }],
  ["telemetry.tracerProvider", { telemetry: { tracerProvider: { startSpan() {} } } }],
  ["telemetry.threadIds", { telemetry: { threadIds: "redacted" } }],
  ["telemetry", { telemetry: { tracerprovider: {} } }],
  ["policy", { policy: "sometimes" }],
  ["channels", { channels: [] }],
  ["fastReads", { fastReads: "yes" }],
  ["interruptBefore", { interruptBefore: "tools" }],
  ["interruptAfter", { interruptAfter: [""] }],
];

// Never connects: the options are checked before the saver touches its client.
const client = new Redis({ lazyConnect: true });
const pool = new pg.Pool();
afterAll(() => Promise.all([client.quit().catch(() => {}), pool.end()]));

const ENTRY_POINTS: [entry: string, build: (options: never) => unknown, cases: typeof REPAIR_OPTIONS][] = [
  ["new SanitizingCheckpointer", (o) => new SanitizingCheckpointer(new MemorySaver(), o), CHECKPOINTER_OPTIONS],
  ["sanitizeGraph", (o) => sanitizeGraph(compiledGraph(), o), CHECKPOINTER_OPTIONS],
  [
    "sanitizeMessagesMiddleware",
    (o) => sanitizeMessagesMiddleware(o),
    [...REPAIR_OPTIONS, ["onRepair", { onRepair: 1 }], ["telemetry", { telemetry: "on" }]],
  ],
  [
    "repairMessages",
    (o) => repairMessages([], o),
    [
      ...REPAIR_OPTIONS,
      ["tail", { tail: "close" }],
      ["inputStart", { inputStart: 1 }],
      ["inputStart", { inputStart: 0.5 }],
    ],
  ],
  [
    "new IORedisSaver",
    (o) => new IORedisSaver(client, o),
    [
      ["keyPrefix", { keyPrefix: "app{1}" }],
      ["keyPrefix", { keyPrefix: 7 }],
      ["ttlSeconds", { ttlSeconds: 0 }],
      ["ttlSeconds", { ttlSeconds: 1.5 }],
      ["waitForReplicas", { waitForReplicas: 0.5 }],
      ["waitForReplicas", { waitForReplicas: -1 }],
    ],
  ],
  ["resilientRedisOptions", (o) => resilientRedisOptions(o), [["outageMs", { outageMs: 0 }]]],
  ["resilientClusterOptions", (o) => resilientClusterOptions(o), [["outageMs", { outageMs: Number.NaN }]]],
  ["new FastPostgresSaver", (o) => new FastPostgresSaver(pool, undefined, o), [["schema", { schema: 'my"schema' }]]],
  [
    "FastPostgresSaver.fromConnString",
    (o) => FastPostgresSaver.fromConnString("postgresql://x", o),
    [["schema", { schema: 1 }]],
  ],
];

describe("a bad option", () => {
  for (const [entry, build, cases] of ENTRY_POINTS) {
    it.each(cases)(`${entry}: %s %j throws InvalidOptionError naming it`, (option, options) => {
      const error = thrownBy(() => build(options as never));
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({ name: "InvalidOptionError", option });
      expect((error as Error).message.startsWith(`${option} `)).toBe(true);
    });
  }

  it("is checked once by sanitizeGraph, when it is called, not again for each saver it wraps", () => {
    let reads = 0;
    const options: SanitizingCheckpointerOptions = {
      get policy() {
        reads++;
        return "repair" as const;
      },
    };
    const graph = sanitizeGraph(compiledGraph(), options);
    expect(reads).toBe(1);
    for (const saver of [new MemorySaver(), new MemorySaver()]) {
      graph.checkpointer = saver;
      expect(graph.checkpointer).toBeInstanceOf(SanitizingCheckpointer);
    }
    expect(reads).toBe(1);
  });

  it("a saver that is not a checkpointer is an argument, not an option: a plain TypeError", () => {
    const error = thrownBy(() => new SanitizingCheckpointer({} as never));
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(InvalidOptionError);
  });
});

describe("a bad per-call configurable.tailPolicy", () => {
  const config = { configurable: { thread_id: "t", tailPolicy: "fix" } };
  const expected = { name: "InvalidOptionError", option: "configurable.tailPolicy", value: "fix" };

  it("fails the getTuple or list that carries it, and nothing else", async () => {
    const checkpointer = new SanitizingCheckpointer(new MemorySaver());
    await expect(checkpointer.getTuple(config)).rejects.toThrow(InvalidOptionError);
    await expect(checkpointer.getTuple(config)).rejects.toMatchObject(expected);
    await expect(checkpointer.list(config).next()).rejects.toMatchObject(expected);
    expect(await checkpointer.getTuple({ configurable: { thread_id: "t" } })).toBeUndefined();
  });

  it("fails the run of a graph that reads through the checkpointer", async () => {
    const graph = compiledGraph();
    graph.checkpointer = new SanitizingCheckpointer(new MemorySaver());
    await expect(graph.invoke({ messages: [] }, config)).rejects.toMatchObject(expected);
  });
});
