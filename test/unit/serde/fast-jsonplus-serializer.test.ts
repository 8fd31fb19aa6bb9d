/**
 * FastJsonPlusSerializer against the stock JsonPlusSerializer: what either
 * writes, the other reads to the same result (same classes, same fields, same
 * errors), for generated values and for hand-written JSON the stock writer
 * would never produce.
 */
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage, ToolMessageChunk } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { FastJsonPlusSerializer } from "../../../src/index.js";
import {
  document,
  lcRecord,
  messageOf,
  outcome,
  plainKey,
  plainValue,
  printOutcome,
  sameOutcome,
} from "../../support/generators/serde-values.js";
import { storedData, storedText } from "../../support/generators/raw-json.js";

const stock = new JsonPlusSerializer();
const fast = new FastJsonPlusSerializer();
const numRuns = Number(process.env.FC_RUNS ?? 300);

/** Both serializers read `data` to the same value or the same error (see `sameOutcome`). */
async function expectSameRead(data: Uint8Array | string, type = "json") {
  const expected = await outcome(stock.loadsTyped(type, data));
  const actual = await outcome(fast.loadsTyped(type, data));
  const reproducible = isDeepStrictEqual(expected, await outcome(stock.loadsTyped(type, data)));
  if (!sameOutcome(actual, expected, reproducible))
    expect.fail(`fast read ${printOutcome(actual)}\nstock read ${printOutcome(expected)}`);
  return actual;
}

describe("FastJsonPlusSerializer reads like JsonPlusSerializer", () => {
  it("what the stock serializer writes, it reads to strictly equal values of the same classes", async () => {
    await fc.assert(
      fc.asyncProperty(document, async (doc) => {
        const [type, bytes] = await stock.dumpsTyped(doc);
        await expectSameRead(bytes, type);
      }),
      { numRuns },
    );
  });

  it("what it writes is byte for byte what the stock serializer writes, so the stock one reads it", async () => {
    await fc.assert(
      fc.asyncProperty(document, async (doc) => {
        expect(await fast.dumpsTyped(doc)).toStrictEqual(await stock.dumpsTyped(doc));
      }),
      { numRuns },
    );
  });

  it("reads JSON the stock writer never produces (raw lc records, odd keys) exactly as the stock serializer does", async () => {
    const raw = fc
      .jsonValue()
      .chain((json) => fc.array(lcRecord, { maxLength: 2 }).map((records) => ({ json, records })));
    await fc.assert(
      fc.asyncProperty(raw, async (value) => {
        await expectSameRead(JSON.stringify(value));
      }),
      { numRuns },
    );
  });

  it("reads any stored text, odd number literals, keys, escapes and bytes included, to the stock values or errors", async () => {
    await fc.assert(
      fc.asyncProperty(storedText, async (stored) => {
        await expectSameRead(storedData(stored));
      }),
      { numRuns },
    );
  });

  it("reads messages, JSON values and undefined without the stock reviver", async () => {
    // Not ToolMessageChunk: load() camel-cases its tool_call_id, which is left to the stock path.
    const plainMessage = messageOf(plainValue, plainKey).filter((m) => m.constructor !== ToolMessageChunk);
    const plainDocument = fc.record({ messages: fc.array(plainMessage, { maxLength: 6 }), other: plainValue });
    const stockReads = vi.spyOn(JsonPlusSerializer.prototype, "loadsTyped");
    try {
      await fc.assert(
        fc.asyncProperty(plainDocument, async (doc) => {
          const [type, bytes] = await stock.dumpsTyped(doc);
          stockReads.mockClear();
          const read = await fast.loadsTyped(type, bytes);
          expect(stockReads).not.toHaveBeenCalled();
          expect(isDeepStrictEqual(read, await stock.loadsTyped(type, bytes))).toBe(true);
        }),
        { numRuns },
      );
    } finally {
      stockReads.mockRestore();
    }
  });

  it("reads a message history back as the same message classes", async () => {
    const history = [
      new HumanMessage({ id: "h", content: "hi" }),
      new AIMessage({ id: "a", content: "", tool_calls: [{ id: "c", name: "f", args: { q: 1 }, type: "tool_call" }] }),
      new ToolMessage({ id: "t", content: "r", tool_call_id: "c" }),
      new AIMessageChunk({ id: "k", content: "partial" }),
    ];
    const [, bytes] = await stock.dumpsTyped({ messages: history });
    const read = (await fast.loadsTyped("json", bytes)) as { messages: unknown[] };
    expect(read.messages.map((m) => (m as object).constructor)).toEqual([
      HumanMessage,
      AIMessage,
      ToolMessage,
      AIMessageChunk,
    ]);
    expect(read.messages).toStrictEqual(history);
  });

  it("reads a number literal that overflows a double in a tool call's args as null, as the stock serializer does", async () => {
    const json = `{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],"kwargs":{"content":"","tool_calls":[{"id":"c1","name":"calc","args":{"x":1e400},"type":"tool_call"}]}}`;
    const read = await fast.loadsTyped("json", json);
    expect(read).toBeInstanceOf(AIMessage);
    expect((read as AIMessage).tool_calls?.[0]?.args).toStrictEqual({ x: null });
    await expectSameRead(json);
  });
});

const msg = (name: string, kwargs: string) =>
  `{"lc":1,"type":"constructor","id":["langchain_core","messages","${name}"],"kwargs":${kwargs}}`;

describe("FastJsonPlusSerializer on shapes only the stock reviver handles", () => {
  it.each([
    ["a kwargs key load() camel-cases", msg("HumanMessage", `{"content":"x","extra-key":1,"other_key":2}`)],
    ["a kwargs key an object inherits", msg("HumanMessage", `{"content":"x","constructor":1,"toString":2}`)],
    [
      "an escaped object in kwargs",
      msg(
        "AIMessage",
        `{"content":"x","additional_kwargs":{"a":{"__lc_escaped__":{"lc":1,"type":"secret","id":["K"]}}}}`,
      ),
    ],
    [
      "undefined records nested in kwargs",
      msg(
        "AIMessage",
        `{"content":[{"type":"text","text":"a","x":{"lc":2,"type":"undefined"}},{"lc":2,"type":"undefined"}],"usage_metadata":{"lc":2,"type":"undefined"}}`,
      ),
    ],
    [
      "-0 in kwargs, which JSON.stringify turns into 0",
      msg(
        "AIMessage",
        `{"content":"x","additional_kwargs":{"a":-0,"b":[-0.0,{"c":-0}]},"usage_metadata":{"input_tokens":-0,"output_tokens":0,"total_tokens":0}}`,
      ),
    ],
    ["-0 outside any message, which stays -0", `{"a":-0,"b":[-0]}`],
    [
      "overflowing literals as whole kwargs fields, which reach the constructor as null",
      msg("AIMessage", `{"content":1.8e308,"tool_calls":-1e999,"additional_kwargs":{"a":[1e400,-1e400]}}`),
    ],
    ["overflowing literals outside any message, which stay infinite", `{"a":1e400,"b":[-1e999,1.8e308]}`],
    ["an undefined record with extra keys", `{"a":{"lc":2,"type":"undefined","b":1}}`],
    ["a __proto__ key", `{"a":{"__proto__":{"polluted":true}},"b":[{"__proto__":1}]}`],
    ["a __proto__ key in kwargs", msg("HumanMessage", `{"content":"x","additional_kwargs":{"__proto__":{"p":1}}}`)],
    [
      "Set, Map, RegExp, Error and Uint8Array records",
      `[{"lc":2,"type":"constructor","id":["Set"],"method":null,"args":[[1,2]],"kwargs":{}},{"lc":2,"type":"constructor","id":["Map"],"method":null,"args":[[["k",1]]],"kwargs":{}},{"lc":2,"type":"constructor","id":["RegExp"],"method":null,"args":["a+","g"],"kwargs":{}},{"lc":2,"type":"constructor","id":["Error"],"method":null,"args":["boom"],"kwargs":{}},{"lc":2,"type":"constructor","id":["Uint8Array"],"method":"from","args":[[1,2]],"kwargs":{}}]`,
    ],
    ["a delta snapshot", `{"lc":2,"type":"delta_snapshot","value":[1,2]}`],
    [
      "a message inside a message's kwargs",
      msg("ToolMessage", `{"content":"x","tool_call_id":"c","artifact":${msg("HumanMessage", `{"content":"inner"}`)}}`),
    ],
    [
      "a message record with an extra key",
      `{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"content":"x"},"graph":1}`,
    ],
    [
      "a message record without kwargs",
      `{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"]}`,
    ],
    [
      "kwargs that are themselves an lc record",
      `{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"lc":2,"type":"undefined"}}`,
    ],
    [
      "a LangChain class that is not a message",
      `{"lc":1,"type":"constructor","id":["langchain_core","prompts","prompt","PromptTemplate"],"kwargs":{"template":"{x}","input_variables":["x"]}}`,
    ],
  ])("%s", async (_, json) => {
    const read = await expectSameRead(json);
    expect(read).toHaveProperty("value");
  });

  it.each([
    ["an unknown message class", msg("NoSuchMessage", `{"content":"x"}`)],
    ["a message-module export that is not a class", msg("isAIMessage", `{"content":"x"}`)],
    ["a namespace load() refuses", `{"lc":1,"type":"constructor","id":["evil","module","Thing"],"kwargs":{}}`],
    ["a secret", msg("HumanMessage", `{"content":{"lc":1,"type":"secret","id":["API_KEY"]}}`)],
    [
      "nesting deeper than load() allows",
      msg("HumanMessage", `{"content":"x","additional_kwargs":${"[".repeat(60)}${"]".repeat(60)}}`),
    ],
    ["invalid JSON", `{"messages": [`],
    [
      "messages whose constructors both throw, with the error the stock reviver settles first",
      `[${msg("AIMessage", `{"content":[],"response_metadata":""}`)},${msg("AIMessage", `{"response_metadata":null}`)}]`,
    ],
  ])("rejects %s with the stock error", async (_, json) => {
    const read = await expectSameRead(json);
    expect(read).toHaveProperty("error");
  });

  it("leaves deep nesting to the stock reviver, whose stack decides whether it throws", async () => {
    const stockReads = vi.spyOn(JsonPlusSerializer.prototype, "loadsTyped");
    try {
      expect(await expectSameRead(`${"[".repeat(600)}${"]".repeat(600)}`)).toHaveProperty("value");
      // The two stock reads it is compared with, and the fast serializer's own.
      expect(stockReads).toHaveBeenCalledTimes(3);
    } finally {
      stockReads.mockRestore();
    }
  });

  it("passes bytes through and rejects unknown types as the stock serializer does", async () => {
    await expectSameRead(new Uint8Array([1, 2, 3]), "bytes");
    await expectSameRead("abc", "bytes");
    expect(await expectSameRead("{}", "msgpack")).toHaveProperty("error");
  });
});
