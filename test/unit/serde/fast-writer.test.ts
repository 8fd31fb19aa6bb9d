/**
 * FastJsonPlusSerializer's writer against the stock JsonPlusSerializer's: the same bytes (or the same error) for real
 * message histories among odd channel values, for every shape the stock writer treats specially (undefined, Set,
 * Map, RegExp, Error, Uint8Array, Send, delta snapshots, nested LangChain objects), and for cycles, where the stock
 * writer's "[Circular]" replacement is what a message's toJSON() sees.
 */
import { AIMessage, HumanMessage, ToolMessage, isBaseMessage, type BaseMessage } from "@langchain/core/messages";
import { JsonPlusSerializer, emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { Send } from "@langchain/langgraph";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FastJsonPlusSerializer } from "../../../src/index.js";
import { deltaSnapshot } from "../../../src/langgraph-features.js";
import { prepareWrite } from "../../../src/serde/prepare-write.js";
import { anyHistory, cleanHistory } from "../../support/generators/arbitraries.js";
import { anyValue, message, messageOf, outcome, plainKey, plainValue } from "../../support/generators/serde-values.js";

const stock = new JsonPlusSerializer();
const fast = new FastJsonPlusSerializer();
const numRuns = Number(process.env.FC_RUNS ?? 300);
const decoder = new TextDecoder();

/** What a writer gives for `value`: its type and text, the bytes' class, or its error. */
async function written(serde: JsonPlusSerializer, value: unknown) {
  const result = await outcome(serde.dumpsTyped(value));
  if (!("value" in result)) return result;
  const [type, bytes] = result.value as [string, Uint8Array];
  return { type, text: decoder.decode(bytes), bytesClass: bytes.constructor.name };
}

async function expectSameBytes(value: unknown) {
  const expected = await written(stock, value);
  expect(await written(fast, value)).toStrictEqual(expected);
  return expected;
}

/** A checkpoint as MemorySaver writes it, and the messages channel alone, as the SQL savers write it. */
function checkpointOf(messages: unknown, other: unknown = null) {
  const checkpoint = emptyCheckpoint();
  checkpoint.channel_values = { messages, other };
  checkpoint.channel_versions = { messages: 3, other: 1 };
  return checkpoint;
}

/** Values the stock writer encodes specially, and ones its replacer or toJSON() would see differently as a copy. */
const oddValue = fc.oneof(
  anyValue,
  fc.constantFrom(
    undefined,
    new Set([1, "a"]),
    new Map([["k", { a: 1 }]]),
    /a+/gi,
    new Error("boom"),
    new TypeError("typed"),
    { nested: new Uint8Array([1, 2, 3]) },
    new Date(0),
    Object.assign(Object.create(null) as object, { a: 1 }),
    { lg_name: "Send", node: "n", args: { x: 1 } },
    { toJSON: () => ({ replaced: true }) },
    { lc: 1, type: "constructor", id: ["x"] },
    { __lc_escaped__: 1 },
    JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown,
  ),
  fc.string().map((node) => new Send(node, { messages: [new HumanMessage({ id: "s", content: node })] })),
  fc.nat().map((timeout) => Object.assign(new Send("n", { t: 1 }), { timeout })),
);
/** A history with odd values (and the history itself) in the containers around it, or inside its messages. */
const odd = <T>(history: fc.Arbitrary<T>) =>
  fc.oneof(
    fc.tuple(history, oddValue).map(([messages, other]) => checkpointOf(messages, other)),
    fc.tuple(history, oddValue).map(([messages, other]) => [other, ...(messages as unknown[]), other]),
    history.map((messages) => ({ snapshot: deltaSnapshot(messages as unknown[]), messages })),
    fc.tuple(history, oddValue).map(([messages, other]) => checkpointOf({ inner: messages, other })),
  );

describe("FastJsonPlusSerializer writes what JsonPlusSerializer writes, byte for byte", () => {
  it("real message histories, in a checkpoint and as a channel value", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyHistory, cleanHistory), async (history) => {
        await expectSameBytes(checkpointOf(history));
        await expectSameBytes(history);
      }),
      { numRuns },
    );
  });

  it("histories among odd values: undefined, Set, Map, RegExp, Error, Uint8Array, Send, delta snapshots", async () => {
    await fc.assert(
      fc.asyncProperty(odd(anyHistory), async (value) => {
        await expectSameBytes(value);
      }),
      { numRuns },
    );
  });

  it("messages of every class holding plain data or anything else (Maps, Dates, lc keys, __proto__ keys)", async () => {
    // JSON data under keys toJSON() or the stock replacer treat apart.
    const oddKey = fc.oneof(
      plainKey,
      fc.constantFrom("lc", "__lc_escaped__", "__proto__", "toJSON", "lg_name", "node"),
    );
    const oddData = messageOf(fc.jsonValue({ maxDepth: 2 }), oddKey);
    const messages = fc.array(fc.oneof(messageOf(plainValue, plainKey), oddData, message), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(odd(messages), async (value) => {
        await expectSameBytes(value);
      }),
      { numRuns },
    );
  });

  it("leaves no message of a real history to its own toJSON(), so the fast path is what is tested", async () => {
    await fc.assert(
      fc.property(anyHistory, (history) => {
        const prepared = prepareWrite(checkpointOf(history))?.value;
        if (history.length === 0) return;
        const left = (value: unknown): boolean =>
          isBaseMessage(value) || (typeof value === "object" && value !== null && Object.values(value).some(left));
        expect(left(prepared)).toBe(false);
      }),
      { numRuns },
    );
  });
});

/** A small history, fresh for each case (cases mutate it). */
const history = (): BaseMessage[] => [
  new HumanMessage({ id: "h", content: "hi" }),
  new AIMessage({ id: "a", content: "", tool_calls: [{ id: "c", name: "f", args: { q: 1 }, type: "tool_call" }] }),
  new ToolMessage({ id: "t", content: "r", tool_call_id: "c" }),
];

describe("FastJsonPlusSerializer writes what JsonPlusSerializer writes, on shapes a message's toJSON() treats apart", () => {
  const cyclic = () => {
    const value: Record<string, unknown> = { a: 1 };
    value.self = value;
    return value;
  };
  it.each<[string, () => unknown]>([
    ["a circular value beside the messages", () => checkpointOf(history(), cyclic())],
    [
      "a cycle inside a message's kwargs (toJSON() would write it as not_implemented, the stock writer as [Circular])",
      () => {
        const messages = history();
        messages[1].additional_kwargs.loop = cyclic();
        return checkpointOf(messages);
      },
    ],
    [
      "a message whose kwargs hold the message itself",
      () => {
        const messages = history();
        messages[0].additional_kwargs.me = messages[0];
        return checkpointOf(messages);
      },
    ],
    [
      "a message whose kwargs hold the list it is in",
      () => {
        const messages = history();
        (messages[2].response_metadata as Record<string, unknown>).all = messages;
        return checkpointOf(messages);
      },
    ],
    [
      "a message with a circular field toJSON() does not read",
      () => {
        const messages = history();
        Object.assign(messages[0], { extra: messages[0] });
        return checkpointOf(messages);
      },
    ],
    [
      "a message whose lc_kwargs hold a cycle its fields do not",
      () => {
        const messages = history();
        messages[0].lc_kwargs.additional_kwargs = cyclic();
        return checkpointOf(messages);
      },
    ],
    ["a value whose toJSON() returns a cycle", () => checkpointOf(history(), { toJSON: cyclic })],
    [
      "a cycle through a Set's items",
      () => {
        const value: Record<string, unknown> = { messages: history() };
        value.set = new Set([value]);
        return value;
      },
    ],
    [
      "a cycle behind a getter",
      () => {
        const value = { messages: history() };
        return Object.defineProperty(value, "view", { enumerable: true, get: () => ({ back: value }) });
      },
    ],
    [
      "an Error with a circular field, reached again outside it",
      () => {
        const error = new Error("boom") as Error & { ctx?: unknown };
        const ctx = { error, messages: history() };
        error.ctx = ctx;
        return { error, ctx };
      },
    ],
    [
      "a message's field reassigned after it was built (toJSON() reads the field, not lc_kwargs)",
      () => {
        const messages = history();
        messages[0].content = "changed";
        return checkpointOf(messages);
      },
    ],
    [
      "kwargs keys toJSON() renames or escapes",
      () =>
        checkpointOf([
          new HumanMessage({ content: "x", additional_kwargs: { lc: 1, __lc_escaped__: 2 } }),
          new HumanMessage({ content: "x", additional_kwargs: { nested: { lc: 3 } } }),
          new HumanMessage({ content: "x", additional_kwargs: { only: { __lc_escaped__: 4 } } }),
          new HumanMessage({ content: "x", additional_kwargs: JSON.parse('{"a": [{"__proto__": {"p": 1}, "b": 2}]}') }),
          ...["toolCallId", "a__b", "_lead", "trail_", "A", "x-y", "constructor", "__proto__"].map(
            (key) => new HumanMessage(JSON.parse(`{"content": "x", "${key}": "v"}`) as { content: string }),
          ),
        ]),
    ],
    [
      "data in a message with a toJSON or lg_name of its own, which toJSON()'s escaping copy drops when not enumerable",
      () => {
        const hidden = (key: string, value: unknown) => Object.defineProperty({ a: 1 }, key, { value });
        return checkpointOf([
          new AIMessage({ content: "x", additional_kwargs: { j: hidden("toJSON", () => "own") } }),
          new AIMessage({ content: "x", additional_kwargs: { s: [hidden("lg_name", "Send")] } }),
          new AIMessage({ content: "x", additional_kwargs: { j: { toJSON: () => "own" }, s: { lg_name: "Send" } } }),
        ]);
      },
    ],
    [
      "non-JSON data in a message (a Date, a Set, a Map, a class instance, a nested message)",
      () =>
        checkpointOf([
          new AIMessage({ content: "x", additional_kwargs: { at: new Date(0), set: new Set([1]), map: new Map() } }),
          new ToolMessage({ content: "x", tool_call_id: "c", artifact: new HumanMessage("inner") }),
          new AIMessage({ content: "x", response_metadata: { error: new Error("e"), bytes: new Uint8Array([1]) } }),
        ]),
    ],
    [
      "a subclass of a message class, and a message with its own toJSON()",
      () => {
        class Custom extends HumanMessage {}
        const own = Object.assign(new HumanMessage("own"), { toJSON: () => ({ own: true }) });
        return checkpointOf([new Custom("sub"), own, ...history()]);
      },
    ],
    [
      "messages in containers a copy would write differently",
      () => ({
        nullPrototype: Object.assign(Object.create(null) as object, { messages: history() }),
        sendLike: { lg_name: "Send", node: "n", args: history() },
        withToJSON: Object.assign(history(), { toJSON: () => "replaced" }),
        namedArray: Object.assign(history(), { lg_name: "Send", node: "n", args: 1 }),
        protoKey: Object.assign(JSON.parse('{"__proto__": {"a": 1}}') as object, { messages: history() }),
        subclassed: Object.assign(new (class List extends Array<unknown> {})(), history()),
      }),
    ],
    ["a message as the whole value", () => history()[1]],
    ["undefined, and messages holding undefined", () => [undefined, new AIMessage({ content: "x", name: undefined })]],
    ["Send with messages and a timeout", () => [Object.assign(new Send("n", { messages: history() }), { timeout: 5 })]],
    ["a delta snapshot of messages", () => ({ messages: deltaSnapshot(history()) })],
    ["nesting deeper than the stack beside messages", () => checkpointOf(history(), deep(20_000))],
  ])("%s", async (_, make) => {
    await expectSameBytes(make());
  });

  it("writes a message changed since the last write as it is now", async () => {
    const messages = history();
    await expectSameBytes(checkpointOf(messages));
    messages[1].additional_kwargs.added = { x: 1 };
    (messages[1] as AIMessage).tool_calls![0].args.q = 2;
    messages[0].content = [{ type: "text", text: "now a block" }];
    await expectSameBytes(checkpointOf(messages));
  });
});

function deep(depth: number) {
  let value: unknown = history();
  for (let i = 0; i < depth; i++) value = { value };
  return value;
}
