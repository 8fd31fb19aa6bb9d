/**
 * Values checkpoints hold, for properties that compare FastJsonPlusSerializer with the stock serializer: chat
 * messages of every class among JSON, `undefined`, Maps, Sets, Dates, typed arrays and records shaped like the
 * revivers' special cases; and a read's outcome, its value or its error, to compare both by.
 */
import {
  ChatMessage,
  FunctionMessage,
  HumanMessage,
  HumanMessageChunk,
  RemoveMessage,
  SystemMessage,
  AIMessage,
  AIMessageChunk,
  ToolMessage,
  ToolMessageChunk,
} from "@langchain/core/messages";
import fc from "fast-check";
import { inspect, isDeepStrictEqual } from "node:util";

export type Outcome = { value: unknown } | { error: string };
export async function outcome(read: Promise<unknown>): Promise<Outcome> {
  try {
    return { value: await read };
  } catch (error) {
    return { error: String(error) };
  }
}

/**
 * Whether two reads gave deep-equal values with the same prototypes, or the same error. (Node's isDeepStrictEqual,
 * not toStrictEqual: vitest compares types through `.constructor`, which data may own.) Where stored data sets a
 * prototype (a `__proto__` key), two stock reads differ by prototype identity too: pass `reproducible: false`,
 * and they compare by their full printed form, without the classes' own inspect hooks (a message's prints JSON,
 * so Infinity as null). A message whose data owns `constructor` cannot be printed (its toStringTag getter
 * throws): such reads compare by that error.
 */
export function sameOutcome(actual: Outcome, expected: Outcome, reproducible = true): boolean {
  if (reproducible) return isDeepStrictEqual(actual, expected);
  const print = (read: Outcome) => {
    try {
      return inspect(read, { depth: Infinity, showHidden: true, customInspect: false });
    } catch (error) {
      return `unprintable: ${String(error)}`;
    }
  };
  return print(actual) === print(expected);
}

export const printOutcome = (read: Outcome) => inspect(read, { depth: Infinity, showHidden: true });

// Keys that mean something to one of the revivers, mixed with arbitrary ones.
export const key = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 6 }) },
  fc.constantFrom(
    "lc",
    "type",
    "id",
    "kwargs",
    "value",
    "args",
    "__proto__",
    "__lc_escaped__",
    "constructor",
    "tool_calls",
    "a-b",
    "a b",
    "_x",
  ),
);
export const plainKey = fc.string({ maxLength: 6 }).filter((k) => !["lc", "__proto__", "__lc_escaped__"].includes(k));
/** JSON values and `undefined`: what checkpoints are made of. */
export const plainValue = fc.anything({ key: plainKey, maxDepth: 3 });
export const anyValue = fc.anything({
  key,
  maxDepth: 3,
  withMap: true,
  withSet: true,
  withDate: true,
  withTypedArray: true,
  withNullPrototype: true,
});
const usage = fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat(), total_tokens: fc.nat() });

/** Every message class a chat history holds, with optional fields present or not, holding `value`s. */
export const messageOf = (value: fc.Arbitrary<unknown>, keys: fc.Arbitrary<string>) => {
  const dict = fc.dictionary(keys, value, { maxKeys: 4 });
  // Typed as text blocks for the constructors; generated blocks may hold anything.
  const content = fc.oneof(
    fc.string(),
    fc.array(fc.oneof(fc.record({ type: fc.constant("text"), text: fc.string() }), dict), { maxLength: 3 }),
  ) as fc.Arbitrary<string | { type: "text"; text: string }[]>;
  const toolCall = fc.record(
    { id: fc.string(), name: fc.string(), args: dict, type: fc.constant("tool_call" as const) },
    { requiredKeys: ["name", "args"] },
  );
  const common = { content, id: fc.string(), name: fc.string(), additional_kwargs: dict, response_metadata: dict };
  return fc.oneof(
    fc.record(common, { requiredKeys: ["content"] }).map((f) => new HumanMessage(f)),
    fc.record(common, { requiredKeys: ["content"] }).map((f) => new HumanMessageChunk(f)),
    fc.record(common, { requiredKeys: ["content"] }).map((f) => new SystemMessage(f)),
    fc
      .record(
        { ...common, tool_calls: fc.array(toolCall, { maxLength: 2 }), usage_metadata: usage },
        { requiredKeys: ["content"] },
      )
      .map((f) => new AIMessage(f)),
    fc.record({ ...common, usage_metadata: usage }, { requiredKeys: ["content"] }).map((f) => new AIMessageChunk(f)),
    fc
      .record(
        {
          ...common,
          tool_call_id: fc.string(),
          artifact: value,
          status: fc.constantFrom("success" as const, "error" as const),
        },
        { requiredKeys: ["content", "tool_call_id"] },
      )
      .map((f) => new ToolMessage(f)),
    fc
      .record({ ...common, tool_call_id: fc.string() }, { requiredKeys: ["content", "tool_call_id"] })
      .map((f) => new ToolMessageChunk(f)),
    fc.record({ ...common, role: fc.string() }, { requiredKeys: ["content", "role"] }).map((f) => new ChatMessage(f)),
    fc
      .record({ ...common, name: fc.string() }, { requiredKeys: ["content", "name"] })
      .map((f) => new FunctionMessage(f)),
    fc.string().map((id) => new RemoveMessage({ id })),
  );
};
export const message = messageOf(anyValue, key);
export const dict = fc.dictionary(key, anyValue, { maxKeys: 4 });

/** Records shaped like the revivers' special cases, well-formed or not. */
export const lcRecord = fc.record(
  {
    lc: fc.constantFrom(1, 2, 3),
    type: fc.constantFrom("constructor", "undefined", "delta_snapshot", "secret", "not_implemented"),
    id: fc.oneof(
      fc.constant(["langchain_core", "messages", "HumanMessage"]),
      fc.constant(["Set"]),
      fc.array(fc.string(), { maxLength: 3 }),
    ),
    kwargs: dict,
    value: anyValue,
    args: fc.array(anyValue, { maxLength: 2 }),
  },
  { requiredKeys: ["lc", "type"] },
);

/** A checkpoint-like document: messages among other channel values. */
export const document = fc.record({
  channel_values: fc.record({ messages: fc.array(message, { maxLength: 6 }), other: anyValue }),
  lcLike: lcRecord,
  extra: anyValue,
});
