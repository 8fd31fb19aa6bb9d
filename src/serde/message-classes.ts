// The classes the fast reviver builds, and the constructor keys `load()` would pass them.
import * as messages from "@langchain/core/messages";

type MessageClass = new (fields: Record<string, unknown>) => messages.BaseMessage;

export interface MessageClassEntry {
  /** As `load()` resolves `["langchain_core", "messages", name]`. */
  readonly ctor: MessageClass;
  /** `undefined` when only camel-casing would give it: the caller defers to the stock path. */
  keyFor(key: string): string | undefined;
}

const SEPARATORS = /[-_\s]/;
// Only hits are cached: names come from stored data.
const entries = new Map<string, MessageClassEntry>();

/** As `load()` builds it: a plain object, so inherited names resolve the same way. */
function invertedAliases(ctor: MessageClass): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (
    let current: unknown = ctor;
    typeof current === "function" && current.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    Object.assign(aliases, Reflect.get(current.prototype as object, "lc_aliases"));
  }
  const inverted: Record<string, string> = {};
  for (const [key, value] of Object.entries(aliases)) inverted[value] = key;
  return inverted;
}

function isMessageClass(value: unknown): value is MessageClass {
  // Not `instanceof`: BaseMessage's Symbol.hasInstance checks instances, not prototypes.
  return (
    typeof value === "function" && Object.prototype.isPrototypeOf.call(messages.BaseMessage.prototype, value.prototype)
  );
}

function entryFor(ctor: MessageClass, name: string): MessageClassEntry {
  const inverted = invertedAliases(ctor);
  // load() renames the class on every call; once gives the same result.
  Object.defineProperty(ctor, "name", { value: name });
  return {
    ctor,
    // keyFromJson: an alias, else the camel-cased key. Inherited names ("constructor", "__proto__") defer.
    keyFor(key) {
      const alias = Object.hasOwn(inverted, key) ? inverted[key] : undefined;
      if (alias) return alias;
      return key in inverted || SEPARATORS.test(key) ? undefined : key;
    },
  };
}

/** `undefined` for a name `load()` would not build a message from. */
export function messageClass(name: string): MessageClassEntry | undefined {
  let entry = entries.get(name);
  if (entry === undefined) {
    const candidate: unknown = Object.hasOwn(messages, name) ? (messages as Record<string, unknown>)[name] : undefined;
    if (!isMessageClass(candidate)) return undefined;
    entries.set(name, (entry = entryFor(candidate, name)));
  }
  return entry;
}
