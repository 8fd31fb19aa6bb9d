// A synchronous reviver for plain JSON, `undefined` records and messages; any other shape throws NEEDS_STOCK_REVIVER
// and the stock reviver reads the whole document, so every result is the stock one (docs/serializer.md).
import { messageClass } from "./message-classes.js";

export const NEEDS_STOCK_REVIVER: unique symbol = Symbol("needs the stock reviver");

type JsonObject = Record<string, unknown>;

/** The stock reviver runs out of stack a few thousand levels down; checkpoints are never nearly this deep. */
const MAX_DEPTH = 500;

/** `load()` throws past depth 50. */
const MAX_KWARGS_DEPTH = 45;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null;

function hasOnlyKeys(record: JsonObject, count: number): boolean {
  let keys = 0;
  for (const _ in record) keys++;
  return keys === count;
}

/** JSON.stringify writes -0 as 0 and ±Infinity (from `1e400`) as null. */
const changesInStringify = (item: unknown) => item === 0 || item === Infinity || item === -Infinity;
const stringified = (item: unknown) => (item === 0 ? 0 : null);

const isUndefinedRecord = (record: JsonObject) =>
  record.lc === 2 && record.type === "undefined" && hasOnlyKeys(record, 2);

/** Kwargs pass JSON.stringify before `load()` copies them: `undefined` records drop, -0 is 0, ±Infinity null. */
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

/** `load()` of `{ lc: 1, type: "constructor", id, kwargs }`. */
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

/** Reuses the parsed objects and arrays. Throws {@link NEEDS_STOCK_REVIVER} for shapes only stock handles. */
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
