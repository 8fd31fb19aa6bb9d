/**
 * The drop-in reads through FastJsonPlusSerializer: a saver with the stock serializer is read through the fast one
 * by `new SanitizingCheckpointer(saver)` and `sanitizeGraph`, on every backend, with the same bytes stored and the
 * same values read as with the stock one (generated values, crafted constructor records, and threads stored by real
 * runs of every provider client); `fastReads: false` keeps today's behaviour; a serializer of the app's own stays.
 */
import { HumanMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import {
  JsonPlusSerializer,
  MemorySaver,
  emptyCheckpoint,
  uuid6,
  type BaseCheckpointSaver,
  type Checkpoint,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FastJsonPlusSerializer, SanitizingCheckpointer, sanitizeGraph } from "../../src/index.js";
import { IORedisSaver } from "../../src/redis/index.js";
import { CLIENTS, chatModel, startEmulator, type ProviderEmulator } from "../support/provider-emulator/index.js";
import { saverFactories, saverPerTest, type SaverFactory } from "../support/savers/savers.js";
import { document, outcome, printOutcome, sameOutcome } from "../support/generators/serde-values.js";
import { FIRST_QUESTION } from "../support/graphs/scenarios.js";
import { NEXT_QUESTION, agentScript, cancelFirstTurn, runTurn } from "../support/graphs/wire-agents.js";

const numRuns = Number(process.env.FC_RUNS ?? 25);
const config = (thread: string) => ({ configurable: { thread_id: thread } });

/** A second saver over `saver`'s store, reading with a new stock serializer, as a saver the app builds has one. */
const stockReader = (factory: SaverFactory, saver: BaseCheckpointSaver) =>
  factory.reader(saver, new JsonPlusSerializer());

/** Every tuple of `thread`, read through `saver` (an error, the same way). */
async function listed(saver: BaseCheckpointSaver, thread: string) {
  return outcome(
    (async () => {
      const tuples = [];
      for await (const tuple of saver.list(config(thread))) tuples.push(tuple);
      return tuples;
    })(),
  );
}

/**
 * `thread` read through the drop-in and through `fastReads: false` (today's wrapper, the stock serializer), each
 * over its own saver on the store: the same tuples, or the same error.
 */
async function expectDropInReadsAsStock(factory: SaverFactory, saver: BaseCheckpointSaver, thread: string) {
  const fast = new SanitizingCheckpointer(stockReader(factory, saver));
  const stock = new SanitizingCheckpointer(stockReader(factory, saver), { fastReads: false });
  expect(fast.inner.serde).toBeInstanceOf(FastJsonPlusSerializer);
  expect(stock.inner.serde.constructor).toBe(JsonPlusSerializer);
  for (const read of [listed, (s: BaseCheckpointSaver, t: string) => outcome(s.getTuple(config(t)))]) {
    const expected = await read(stock, thread);
    const actual = await read(fast, thread);
    const reproducible = sameOutcome(expected, await read(stock, thread));
    if (!sameOutcome(actual, expected, reproducible))
      expect.fail(`drop-in read ${printOutcome(actual)}\nstock read ${printOutcome(expected)}`);
  }
}

/** A checkpoint whose `messages` channel holds `value`, at `version`. */
function checkpointOf(value: unknown, version: number | string): Checkpoint {
  const checkpoint = emptyCheckpoint();
  checkpoint.id = uuid6(0);
  checkpoint.channel_values = { messages: value };
  checkpoint.channel_versions = { messages: version };
  return checkpoint;
}

/** Stores `checkpoint` and a pending write of its `messages`, through `saver` (the stock writer). */
async function store(saver: BaseCheckpointSaver, thread: string, checkpoint: Checkpoint) {
  const stored = await saver.put(
    { configurable: { thread_id: thread, checkpoint_ns: "" } },
    checkpoint,
    { source: "loop", step: 1, parents: {} },
    checkpoint.channel_versions,
  );
  await saver.putWrites(stored, [["messages", checkpoint.channel_values.messages]], "task-1");
}

/** Stores `value` as a checkpoint's channel and as a pending write, through `saver`. */
const storeValue = (saver: BaseCheckpointSaver, thread: string, value: unknown) =>
  store(saver, thread, checkpointOf(value, saver.getNextVersion(undefined)));

/** A graph that appends one message, for reads through a graph. */
const echoGraph = (checkpointer: BaseCheckpointSaver) =>
  new StateGraph(MessagesAnnotation)
    .addNode("reply", () => ({ messages: [{ role: "ai", content: "ok" }] }))
    .addEdge(START, "reply")
    .addEdge("reply", END)
    .compile({ checkpointer });

describe("which saver the drop-in reads through the fast serializer", () => {
  it("a saver with the stock serializer: new SanitizingCheckpointer(saver) and sanitizeGraph set it", () => {
    const saver = new MemorySaver();
    const wrapped = new SanitizingCheckpointer(saver);
    expect(saver.serde).toBeInstanceOf(FastJsonPlusSerializer);
    expect(wrapped.serde).toBe(saver.serde);

    const graphSaver = new MemorySaver();
    sanitizeGraph(echoGraph(graphSaver));
    expect(graphSaver.serde).toBeInstanceOf(FastJsonPlusSerializer);
  });

  it("fastReads: false leaves the saver and its serializer exactly as they were", async () => {
    const saver = new MemorySaver();
    const serde = saver.serde;
    const wrapped = new SanitizingCheckpointer(saver, { fastReads: false });
    expect(saver.serde).toBe(serde);
    expect(wrapped.serde).toBe(serde);
    expect(Object.getPrototypeOf(serde)).toBe(JsonPlusSerializer.prototype);

    const graphSaver = new MemorySaver();
    const graphSerde = graphSaver.serde;
    const graph = sanitizeGraph(echoGraph(graphSaver), { fastReads: false });
    await graph.invoke({ messages: [new HumanMessage("hi")] }, config("opt-out"));
    expect(graphSaver.serde).toBe(graphSerde);
    // A SanitizingCheckpointer the app built keeps its own options under sanitizeGraph too.
    const appSaver = new MemorySaver();
    const appSerde = appSaver.serde;
    sanitizeGraph(echoGraph(new SanitizingCheckpointer(appSaver, { fastReads: false })));
    expect(appSaver.serde).toBe(appSerde);
  });

  it("a serializer of the app's own (a subclass, another object, one with a field set) stays", () => {
    class EncryptingSerializer extends JsonPlusSerializer {}
    const custom: SerializerProtocol = {
      dumpsTyped: async () => ["json", new Uint8Array()],
      loadsTyped: async () => 1,
    };
    const configured = Object.assign(new JsonPlusSerializer(), { key: "secret" });
    for (const serde of [new EncryptingSerializer(), custom, configured, new FastJsonPlusSerializer()]) {
      const saver = new MemorySaver(serde);
      new SanitizingCheckpointer(saver);
      expect(saver.serde).toBe(serde);
    }
  });

  it("a saver whose serializer cannot be set (a frozen one) is wrapped, and read as before", async () => {
    const saver = Object.freeze(new MemorySaver());
    const wrapped = new SanitizingCheckpointer(saver);
    expect(wrapped.serde).toBe(saver.serde);
    expect(Object.getPrototypeOf(saver.serde)).toBe(JsonPlusSerializer.prototype);
    await echoGraph(wrapped).invoke({ messages: [new HumanMessage("hi")] }, config("frozen"));
    expect((await wrapped.getTuple(config("frozen")))?.checkpoint.channel_values.messages).toHaveLength(2);
  });

  it("rejects a fastReads that is not a boolean, naming it", () => {
    expect(() => new SanitizingCheckpointer(new MemorySaver(), { fastReads: "yes" as never })).toThrow(
      /fastReads must be true or false/,
    );
    expect(() => sanitizeGraph(echoGraph(new MemorySaver()), { fastReads: 1 as never })).toThrow(/fastReads/);
  });
});

describe.each(saverFactories)("the drop-in on $name", (factory) => {
  const open = saverPerTest(factory);

  it("stores the same bytes as the raw saver, and an unwrapped graph sharing the saver reads the same values", async () => {
    const raw = await open();
    const shared = await open();
    const wrapped = new SanitizingCheckpointer(shared);
    if (shared instanceof IORedisSaver)
      expect(shared.serde.constructor).toBe(FastJsonPlusSerializer); // its default
    else expect(shared.serde).toBeInstanceOf(FastJsonPlusSerializer);
    const thread = `bytes-${randomUUID()}`;
    const value = [new HumanMessage({ id: "h", content: "hi" }), new Set([1]), undefined, { lc: 2, type: "x" }];
    const checkpoint = checkpointOf(value, raw.getNextVersion(undefined));
    await store(raw, thread, checkpoint);
    await store(wrapped, thread, checkpoint);

    // Each store's bytes as stored, captured where the saver hands them to a serializer.
    const storedBytes = async (saver: BaseCheckpointSaver) => {
      const bytes: string[] = [];
      const recorder = new JsonPlusSerializer();
      const load = recorder.loadsTyped.bind(recorder);
      recorder.loadsTyped = (type: string, data: Uint8Array | string) => {
        bytes.push(`${type}:${typeof data === "string" ? data : new TextDecoder().decode(data)}`);
        return load(type, data);
      };
      await factory.reader(saver, recorder).getTuple(config(thread));
      return bytes.sort();
    };
    expect(await storedBytes(shared)).toStrictEqual(await storedBytes(raw));

    // An unwrapped graph on the shared saver, and the stock serializer, read what the drop-in's graph wrote.
    const chat = `chat-${randomUUID()}`;
    await sanitizeGraph(echoGraph(shared)).invoke({ messages: [new HumanMessage("hi")] }, config(chat));
    const unwrapped = await echoGraph(shared).getState(config(chat));
    const stock = await echoGraph(stockReader(factory, shared)).getState(config(chat));
    expect(unwrapped.values).toStrictEqual(stock.values);
    expect(unwrapped.values.messages.map((m: { text: string }) => m.text)).toStrictEqual(["hi", "ok"]);
  });

  it("reads generated values as the stock serializer does, through the wrapper", async () => {
    const saver = await open();
    await fc.assert(
      fc.asyncProperty(document, async (doc) => {
        const thread = `values-${randomUUID()}`;
        await storeValue(stockReader(factory, saver), thread, [doc.channel_values.messages, doc]);
        await storeValue(stockReader(factory, saver), `${thread}-list`, doc.channel_values.messages);
        await expectDropInReadsAsStock(factory, saver, thread);
        await expectDropInReadsAsStock(factory, saver, `${thread}-list`);
      }),
      { numRuns },
    );
  });

  it.each([
    [
      "a global constructor outside the stock allowlist",
      { lc: 2, type: "constructor", id: ["Function"], method: null, args: ["return 1"], kwargs: {} },
    ],
    [
      "an allowlisted name with a method",
      { lc: 2, type: "constructor", id: ["Uint8Array"], method: "of", args: [1], kwargs: {} },
    ],
    [
      "a LangChain class outside the messages",
      {
        lc: 1,
        type: "constructor",
        id: ["langchain_core", "prompts", "prompt", "PromptTemplate"],
        kwargs: { template: "{x}", input_variables: ["x"] },
      },
    ],
    [
      "a message under a longer module path",
      { lc: 1, type: "constructor", id: ["langchain_core", "messages", "ai", "AIMessage"], kwargs: { content: "x" } },
    ],
  ])("a stored value crafted to name %s builds what the stock serializer builds", async (_, crafted) => {
    const saver = await open();
    const thread = `crafted-${randomUUID()}`;
    await storeValue(stockReader(factory, saver), thread, [crafted]);
    await expectDropInReadsAsStock(factory, saver, thread);
    const [read] = (await new SanitizingCheckpointer(stockReader(factory, saver)).getTuple(config(thread)))!.checkpoint
      .channel_values.messages as unknown[];
    // The installed stock reviver keeps a record outside its allowlist inert: data, not a constructor called.
    if (crafted.lc === 2) expect(read).toStrictEqual(crafted);
  });
});

describe("threads stored by real runs of every provider client", () => {
  let emulator: ProviderEmulator;
  beforeAll(async () => (emulator = await startEmulator()));
  afterAll(() => emulator.close());

  describe.each(saverFactories)("on $name", (factory) => {
    const open = saverPerTest(factory);

    it.each(CLIENTS)(
      "%s: a cancelled turn, then the next, read by the drop-in as by the stock serializer",
      async (client) => {
        const saver = await open();
        const model = chatModel(client, emulator.url);
        const thread = `wire-${client}-${randomUUID()}`;
        emulator.script = agentScript();
        await cancelFirstTurn(
          "createAgent",
          model,
          stockReader(factory, saver),
          thread,
          "after-one-of-two-parallel-tools",
        );
        // Gemini rejects a turn after two answered calls (the upstream exception of cancelled-runs.test.ts): what
        // its runs stored up to there is read all the same.
        const turn = (checkpointer: BaseCheckpointSaver, text: string) =>
          runTurn("StateGraph + ToolNode", model, checkpointer, thread, text).catch((error: Error) => {
            if (client !== "gemini") throw error;
          });
        await turn(new SanitizingCheckpointer(stockReader(factory, saver)), NEXT_QUESTION);
        await turn(stockReader(factory, saver), FIRST_QUESTION);
        await expectDropInReadsAsStock(factory, saver, thread);
      },
    );
  });
});
