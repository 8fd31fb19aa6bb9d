/**
 * A synchronous, in-place reviver for parsed `JsonPlusSerializer` JSON that
 * gives exactly the stock result for the shapes checkpoints are made of: plain
 * JSON, `undefined` records and LangChain messages. The stock reviver awaits
 * every node and sends each message through `load()` (stringify, parse, an
 * async walk again); this builds the message directly.
 *
 * Anything else (other LangChain classes, Set/Map/RegExp/Error/Uint8Array and
 * delta-snapshot records, escaped objects, `__proto__` keys, very deep
 * nesting) throws {@link NEEDS_STOCK_REVIVER}, and the caller revives the whole
 * document with the stock serializer, so every result is the stock one. The
 * caller does the same when a message constructor throws: which error stock
 * throws, when several messages' would, depends on the order its awaits settle.
 */
import { messageClass } from "./message-classes.js";

/** Thrown when the document has a shape only the stock reviver handles. */
export const NEEDS_STOCK_REVIVER: unique symbol = Symbol("needs the stock reviver");

type JsonObject = Record<string, unknown>;

/**
 * Nesting handled here. The stock reviver recurses once per level and runs out of stack a few
 * thousand levels down (where depends on the stack left and on what is compiled), so only its
 * own outcome is the stock one for anything deeper; checkpoints are never nearly this deep.
 */
const MAX_DEPTH = 500;

/**
 * Nesting inside a message's kwargs handled here; deeper goes to the stock
 * path, whose `load()` throws past depth 50.
 */
const MAX_KWARGS_DEPTH = 45;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null;

function hasOnlyKeys(record: JsonObject, count: number): boolean {
  let keys = 0;
  for (const _ in record) keys++;
  return keys === count;
}

/**
 * The numbers JSON.stringify writes differently from how JSON.parse read them: -0, written as 0, and
 * ±Infinity (parsed from a literal that overflows a double, such as `1e400`), written as null.
 */
const changesInStringify = (item: unknown) => item === 0 || item === Infinity || item === -Infinity;
/** Such a number as `load()` gets it back from JSON.stringify. */
const stringified = (item: unknown) => (item === 0 ? 0 : null);

/** `{ lc: 2, type: "undefined" }` and nothing else. */
const isUndefinedRecord = (record: JsonObject) =>
  record.lc === 2 && record.type === "undefined" && hasOnlyKeys(record, 2);

/**
 * A value inside a message's kwargs, as stock leaves it: it passes through
 * JSON.stringify before `load()` copies it, so `undefined` records become a
 * dropped key (or `null` in an array), `-0` becomes `0` and ±Infinity `null`;
 * anything `load()` would treat specially defers.
 */
function reviveKwargsValue(value: JsonObject, depth: number): JsonObject {
  if (depth > MAX_KWARGS_DEPTH) throw NEEDS_STOCK_REVIVER;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (isObject(item)) value[i] = isUndefinedRecord(item) ? null : reviveKwargsValue(item, depth + 1);
      else if (changesInStringify(item)) value[i] = stringified(item);
    }
    return value;
  }
  if (value.lc !== undefined) throw NEEDS_STOCK_REVIVER;
  for (const key in value) {
    if (key === "__proto__" || key === "__lc_escaped__") throw NEEDS_STOCK_REVIVER;
    const item = value[key];
    if (changesInStringify(item)) value[key] = stringified(item);
    if (!isObject(item)) continue;
    if (isUndefinedRecord(item)) delete value[key];
    else value[key] = reviveKwargsValue(item, depth + 1);
  }
  return value;
}

/** What `load()` builds from `{ lc: 1, type: "constructor", id, kwargs }`, for message classes. */
function reviveMessage(record: JsonObject): unknown {
  const { id, kwargs } = record as { id: unknown[]; kwargs: unknown };
  if (id.length !== 3 || id[0] !== "langchain_core" || id[1] !== "messages" || typeof id[2] !== "string")
    throw NEEDS_STOCK_REVIVER;
  if (!isObject(kwargs) || Array.isArray(kwargs) || kwargs.lc !== undefined || !hasOnlyKeys(record, 4))
    throw NEEDS_STOCK_REVIVER;
  const entry = messageClass(id[2]);
  if (!entry) throw NEEDS_STOCK_REVIVER;
  const fields: JsonObject = {};
  for (const key in kwargs) {
    let value = kwargs[key];
    if (isObject(value)) {
      if (isUndefinedRecord(value)) continue;
      value = reviveKwargsValue(value, 2);
    } else if (changesInStringify(value)) value = stringified(value);
    const mapped = entry.keyFor(key);
    if (mapped === undefined) throw NEEDS_STOCK_REVIVER;
    fields[mapped] = value;
  }
  return new entry.ctor(fields);
}

/**
 * Revives a value from `JSON.parse` as `JsonPlusSerializer` would, reusing
 * its objects and arrays. Throws {@link NEEDS_STOCK_REVIVER} for shapes it
 * leaves to the stock reviver.
 */
export function reviveJsonPlus(value: unknown, depth = 0): unknown {
  if (!isObject(value)) return value;
  if (depth > MAX_DEPTH) throw NEEDS_STOCK_REVIVER;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (isObject(item)) value[i] = reviveJsonPlus(item, depth + 1);
    }
    return value;
  }
  if (value.lc === 2) {
    if (isUndefinedRecord(value)) return undefined;
    // Also an undefined record with other keys: the stock reviver walks them first.
    if (value.type === "undefined" || value.type === "constructor" || value.type === "delta_snapshot")
      throw NEEDS_STOCK_REVIVER;
  } else if (value.lc === 1 && value.type === "constructor" && Array.isArray(value.id)) {
    return reviveMessage(value);
  }
  for (const key in value) {
    if (key === "__proto__") throw NEEDS_STOCK_REVIVER;
    const item = value[key];
    if (isObject(item)) value[key] = reviveJsonPlus(item, depth + 1);
  }
  return value;
}
