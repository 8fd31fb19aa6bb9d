import { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** Methods a wrapper keeps its own even when they are the base class's: they read through the wrapper's `getTuple`. */
const READS_THROUGH_WRAPPER = new Set(["constructor", "get", "toJSON"]);

/** Every function-valued property name on `object`'s prototype chain, below `Object.prototype`. */
function methodNames(object: object): Set<string> {
  const names = new Set<string>();
  for (
    let proto = Object.getPrototypeOf(object);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (typeof Object.getOwnPropertyDescriptor(proto, name)?.value === "function") names.add(name);
    }
  }
  return names;
}

/**
 * Makes every method of `inner` that `wrapper`'s class does not define callable on `wrapper`, calling `inner`:
 * what is specific to a saver (`setup()`, `end()`, a test's hooks), and what a newer LangGraph adds to
 * `BaseCheckpointSaver` and the saver implements (`copyThread`, `prune`, `deleteForRuns` in LangGraph Python). A
 * method the base class defines is passed on only where the saver overrides it, never to the base's default. @internal
 */
export function passUnknownMethods(wrapper: object, inner: object, wrapperClass: { prototype: object }): void {
  const base = BaseCheckpointSaver.prototype as unknown as Record<string, unknown>;
  const saver = inner as Record<string, unknown>;
  for (const name of methodNames(inner)) {
    if (READS_THROUGH_WRAPPER.has(name) || Object.hasOwn(wrapperClass.prototype, name) || Object.hasOwn(wrapper, name))
      continue;
    if (name in base && saver[name] === base[name]) continue;
    Object.defineProperty(wrapper, name, {
      configurable: true,
      writable: true,
      value: (...args: unknown[]) => (saver[name] as (...a: unknown[]) => unknown).apply(inner, args),
    });
  }
}
