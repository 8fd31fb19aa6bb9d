/**
 * Most of what the stock writer spends on a checkpoint's `put` is LangChain's
 * `Serializable.toJSON`, once per message: a walk up the prototype chain that
 * calls and spreads every class's `lc_aliases`, `lc_secrets` and
 * `lc_attributes` getters, a deep escaping copy of the kwargs, and a regular
 * expression per key. `prepareWrite` gives the same value with each message of
 * a core message class already in its `toJSON()` form, built from what
 * `toJSON()` reads (`JSON.stringify` calls no `toJSON` on a plain object), and
 * says whether the result is plain JSON data, which the caller can stringify
 * without the stock writer's replacer.
 *
 * Why the bytes are the same:
 * - The stock writer first walks every enumerable key for cycles and replaces
 *   the edge that closes one with "[Circular]" (`decirc`), so a message's
 *   `toJSON` can see a cycle replaced. `prepareWrite` walks the same keys, and
 *   any cycle at all gives `undefined`: the caller writes the value as given.
 *   Inside a converted message it walks only what `toJSON` reads, all plain
 *   data, so a cycle `decirc` finds elsewhere in the message never reaches its
 *   output (every cycle through plain data the walk reaches is one it finds).
 * - The form built here is `toJSON()`'s for the message classes of every
 *   `@langchain/core` 1.x: kwargs are the values `toJSON` reads (`key in
 *   message ? message[key] : lc_kwargs[key]`), under the same keys in the same
 *   order. Since core 1.1 `toJSON` escapes kwargs into a deep copy; for plain
 *   data with no `lc` or `__lc_escaped__` key (the only data converted) the copy
 *   writes as the original does. A message of any other class or holding
 *   anything else (a Date, another LangChain object, a key that snake-casing or
 *   an alias could change) is left to its own `toJSON`.
 * - Arrays and plain objects on the way to a converted message are copied, with
 *   the same keys in the same order; a container the stock replacer or
 *   `JSON.stringify` could treat differently as a copy (its own `toJSON` or
 *   `lg_name`, another prototype, a `__proto__` key) is kept, with its messages
 *   as they are.
 *
 * Like `decirc` and `JSON.stringify`, this reads getters; it assumes reading
 * one twice gives the same value (the stock writer reads each twice too).
 */
import * as messages from "@langchain/core/messages";
import { Serializable } from "@langchain/core/load/serializable";

type Json = Record<string, unknown>;

/** Thrown out of the walk on a cycle: the stock writer then writes the value as given. */
const CYCLE: unique symbol = Symbol("cycle");

/** Set by the walk on anything the stock replacer could change: `undefined`, or an object not plain JSON data. */
let needsReplacer = false;

const isJsonPrimitive = (value: unknown) =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** An array or object `JSON.stringify` and the stock replacer take as they are: not a class's, no `toJSON` or `lg_name`. */
function isPlainContainer(value: Json): boolean {
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype !== (Array.isArray(value) ? Array.prototype : Object.prototype)) return false;
  return value.toJSON === undefined && value.lg_name === undefined;
}

const serializableToJSON = Serializable.prototype.toJSON;

/** The prototypes of the message classes of `@langchain/core/messages`, whose `lc_*` getters return constants. */
const messagePrototypes = new Set<object>(
  Object.values(messages).flatMap((value) =>
    typeof value === "function" &&
    value.prototype &&
    Object.prototype.isPrototypeOf.call(messages.BaseMessage.prototype, value.prototype)
      ? [value.prototype as object]
      : [],
  ),
);

/**
 * A kwargs key `keyToJson` keeps as it is (snake-casing changes nothing in every core 1.x: lowercase letters and
 * digits with single underscores between) and that no plain object inherits ("constructor" would be mapped to
 * `Object`, as `toJSON` maps it).
 */
const KEPT_KEY = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
const keptKey = (key: string) => KEPT_KEY.test(key) && !(key in Object.prototype);

/** Per message prototype: `toJSON`'s aliases, or null when `toJSON` would add secrets or attributes. */
const aliasesByPrototype = new Map<object, Json | null>();

function aliasesOf(message: object, prototype: object): Json | null {
  let aliases = aliasesByPrototype.get(prototype);
  if (aliases === undefined) {
    // As toJSON gathers them; for these classes the getters return the same objects for every instance.
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

/**
 * Whether `value` is data `toJSON` keeps as it is (its escaping copy writes the same) and the stock replacer
 * passes through: JSON primitives, `undefined`, and arrays and plain objects of them. Throws CYCLE on a cycle.
 */
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

/** `message.toJSON()`, for a message of a core message class holding plain data; else `undefined`. */
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
    // keyToJson: the alias if there is one, else the key snake-cased, which for these keys is the key.
    mapped[(aliases[key] as string) || key] = value;
  }
  const id = message.lc_id as unknown[];
  if (!id.every((part) => typeof part === "string")) return;
  return { lc: 1, type: "constructor", id, kwargs: mapped };
}

/** `value` with its messages in `toJSON()` form where possible (the value itself if none is). Throws CYCLE. */
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
    // The keys decirc walks: an array's indices, else Object.keys.
    const keys = Array.isArray(object) ? undefined : Object.keys(object);
    const count = keys === undefined ? (object as unknown as unknown[]).length : keys.length;
    // A copy writes as the original does without a `__proto__` key, which a copy would turn into its prototype.
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
 * `value` with every message of a core message class that holds plain data in its `toJSON()` form, and whether the
 * stock replacer could change any of it (if not, it is plain JSON data); `undefined` if it holds a cycle, which is
 * the stock writer's own business.
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
