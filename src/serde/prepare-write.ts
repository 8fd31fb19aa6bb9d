// Messages of core classes put in their `toJSON()` form without `Serializable.toJSON`, most of a `put`'s cost; why the
// bytes stay the same: docs/serializer.md.
import * as messages from "@langchain/core/messages";
import { Serializable } from "@langchain/core/load/serializable";

type Json = Record<string, unknown>;

/** Thrown on a cycle: the stock writer then writes the value as given. */
const CYCLE: unique symbol = Symbol("cycle");

/** Set by the walk on anything the stock replacer could change. */
let needsReplacer = false;

const isJsonPrimitive = (value: unknown) =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** Not a class's, no `toJSON` or `lg_name`: `JSON.stringify` and the stock replacer take it as it is. */
function isPlainContainer(value: Json): boolean {
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype !== (Array.isArray(value) ? Array.prototype : Object.prototype)) return false;
  return value.toJSON === undefined && value.lg_name === undefined;
}

const serializableToJSON = Serializable.prototype.toJSON;

/** Their `lc_*` getters return constants. */
const messagePrototypes = new Set<object>(
  Object.values(messages).flatMap((value) =>
    typeof value === "function" &&
    value.prototype &&
    Object.prototype.isPrototypeOf.call(messages.BaseMessage.prototype, value.prototype)
      ? [value.prototype as object]
      : [],
  ),
);

/** Snake-casing keeps it in every core 1.x, and no plain object inherits it (`toJSON` maps "constructor"). */
const KEPT_KEY = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
const keptKey = (key: string) => KEPT_KEY.test(key) && !(key in Object.prototype);

/** `null` when `toJSON` would add secrets or attributes. */
const aliasesByPrototype = new Map<object, Json | null>();

function aliasesOf(message: object, prototype: object): Json | null {
  let aliases = aliasesByPrototype.get(prototype);
  if (aliases === undefined) {
    // For these classes the getters return the same objects for every instance.
    const gathered: Json = {};
    const secrets: Json = {};
    const attributes: Json = {};
    for (let current: object | null = prototype; current; current = Object.getPrototypeOf(current) as object | null) {
      Object.assign(gathered, Reflect.get(current, "lc_aliases", message));
      Object.assign(secrets, Reflect.get(current, "lc_secrets", message));
      Object.assign(attributes, Reflect.get(current, "lc_attributes", message));
    }
    aliases = Object.keys(secrets).length > 0 || Object.keys(attributes).length > 0 ? null : gathered;
    aliasesByPrototype.set(prototype, aliases);
  }
  return aliases;
}

/** Data `toJSON` and the stock replacer keep as it is. Throws CYCLE on a cycle. */
function isPlainData(value: unknown, stack: object[]): boolean {
  if (isJsonPrimitive(value)) return true;
  if (value === undefined) return (needsReplacer = true);
  if (typeof value !== "object") return false;
  const object = value as Json;
  if (stack.includes(object)) throw CYCLE;
  if (!isPlainContainer(object)) return false;
  stack.push(object);
  let plain = true;
  if (Array.isArray(object)) {
    for (let i = 0; plain && i < object.length; i++) plain = isPlainData(object[i], stack);
  } else if ("lc" in object || "__lc_escaped__" in object) {
    plain = false;
  } else {
    for (const key of Object.keys(object)) {
      if (key === "__proto__" || !isPlainData(object[key], stack)) {
        plain = false;
        break;
      }
    }
  }
  stack.pop();
  return plain;
}

/** `undefined` unless a core message class holding plain data. */
function messageToJSON(message: Json, stack: object[]): Json | undefined {
  const prototype = Object.getPrototypeOf(message) as object;
  if (!messagePrototypes.has(prototype) || message.toJSON !== serializableToJSON || !message.lc_serializable) return;
  const kwargs = message.lc_kwargs as Json;
  if (typeof kwargs !== "object" || kwargs === null || Object.getPrototypeOf(kwargs) !== Object.prototype) return;
  const aliases = aliasesOf(message, prototype);
  if (aliases === null) return;
  const mapped: Json = {};
  for (const key of Object.keys(kwargs)) {
    if (!keptKey(key)) return;
    const value = key in message ? message[key] : kwargs[key];
    if (!isPlainData(value, stack)) return;
    mapped[(aliases[key] as string) || key] = value;
  }
  const id = message.lc_id as unknown[];
  if (!id.every((part) => typeof part === "string")) return;
  return { lc: 1, type: "constructor", id, kwargs: mapped };
}

/** The value itself if no message converts. Throws CYCLE. */
function prepare(value: unknown, stack: object[]): unknown {
  if (typeof value !== "object" || value === null) {
    if (!isJsonPrimitive(value)) needsReplacer = true;
    return value;
  }
  const object = value as Json;
  if (stack.includes(object)) throw CYCLE;
  stack.push(object);
  let result: unknown = messageToJSON(object, stack);
  if (result === undefined) {
    // decirc's keys: an array's indices, else Object.keys.
    const keys = Array.isArray(object) ? undefined : Object.keys(object);
    const count = keys === undefined ? (object as unknown as unknown[]).length : keys.length;
    // A copy would turn a `__proto__` key into its prototype.
    const plain = isPlainContainer(object);
    if (!plain) needsReplacer = true;
    let copy: Json | undefined;
    for (let i = 0; i < count; i++) {
      const key = keys === undefined ? i : keys[i];
      const item = object[key];
      const prepared = prepare(item, stack);
      if (prepared !== item && plain && (copy !== undefined || !Object.hasOwn(object, "__proto__"))) {
        copy ??= Array.isArray(object) ? (object.slice() as unknown as Json) : { ...object };
        copy[key] = prepared;
      }
    }
    result = copy ?? object;
  }
  stack.pop();
  return result;
}

/**
 * `value` with every core message holding plain data in its `toJSON()` form, and whether the stock replacer could
 * change any of it (if not, it is plain JSON data); `undefined` on a cycle, the stock writer's own business.
 */
export function prepareWrite(value: unknown): { value: unknown; needsReplacer: boolean } | undefined {
  needsReplacer = false;
  try {
    return { value: prepare(value, []), needsReplacer };
  } catch {
    // A cycle; or a getter that throws, or nesting too deep to walk, which the stock writer meets as it will.
    return undefined;
  }
}
