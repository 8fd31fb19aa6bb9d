/**
 * `sanitizeGraph`: protection for a graph whose checkpointer is assigned by
 * someone else. `langgraph dev`, the Agent Server and LangGraph Platform load
 * the exported graph and set `graph.checkpointer` to their own saver on every
 * request (runs, getState, getHistory, updateState), dropping whatever was
 * given to `compile`. Here the graph's `checkpointer` field becomes an
 * accessor that wraps every saver assigned to it in a `SanitizingCheckpointer`.
 *
 * Duck-typed on purpose: neither `@langchain/langgraph` nor `langchain` is
 * imported, so the main entry loads without them.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import {
  resolveSanitizerOptions,
  SanitizingCheckpointer,
  type SanitizingCheckpointerOptions,
} from "../checkpointer/sanitizing-checkpointer.js";

/** What a graph's `checkpointer` field may hold: a saver, `true` (inherit the parent's), `false` (none), or unset. */
type CheckpointerField = BaseCheckpointSaver | boolean | undefined;

/** A compiled graph, as far as this module needs to know it. */
interface CompiledGraphLike {
  checkpointer?: CheckpointerField;
  withConfig(config: unknown): unknown;
  getState(config: unknown): unknown;
}

/** What `createAgent` returns: a wrapper whose inner compiled `.graph` is what runs (and what the server runs). */
interface AgentLike {
  graph: CompiledGraphLike;
  withConfig(config: unknown): unknown;
}

/** One `sanitizeGraph` call's options, and its one wrapper per inner saver, shared with the graphs derived from it. */
interface Protection {
  options: SanitizingCheckpointerOptions;
  wrappers: WeakMap<BaseCheckpointSaver, SanitizingCheckpointer>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

function isCompiledGraph(value: unknown): value is CompiledGraphLike {
  return (
    isObject(value) &&
    "checkpointer" in value &&
    typeof value.getState === "function" &&
    typeof value.withConfig === "function"
  );
}

function isAgent(value: unknown): value is AgentLike {
  return isObject(value) && isCompiledGraph(value.graph) && typeof value.withConfig === "function";
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  isObject(value) && typeof value.then === "function";

/**
 * Protects a graph whose checkpointer the server assigns: whatever saver is, or is later, set on it (by `compile`, by
 * `langgraph dev`, the Agent Server, LangGraph Platform or an embed server) is read through a
 * {@link SanitizingCheckpointer} with `options`, so a thread left broken by a cancelled run works on its next message.
 *
 * Accepts a compiled graph, a graph factory (`(config, runtime) => graph`, sync or async) or a `createAgent` agent, and
 * returns the same kind of thing (the graph and agent themselves, protected in place). `.withConfig(…)` of the result
 * stays protected. Subgraphs need nothing: they read through the parent's checkpointer. Per-call overrides
 * (`configurable.sanitizer`) work through a run's `config`. Options are validated here, not on the first request.
 *
 * @example
 * ```ts
 * // langgraph.json: { "graphs": { "agent": "./src/agent.ts:graph" } }
 * export const graph = sanitizeGraph(builder.compile());
 * ```
 */
export function sanitizeGraph<T>(graph: T, options: SanitizingCheckpointerOptions = {}): T {
  resolveSanitizerOptions(options);
  return protect(graph, { options, wrappers: new WeakMap() });
}

function protect<T>(target: T, protection: Protection): T {
  if (typeof target === "function") return protectFactory(target as (...args: unknown[]) => unknown, protection) as T;
  if (isAgent(target)) {
    protect(target.graph, protection);
    protectWithConfig(target, protection);
    return target;
  }
  if (isCompiledGraph(target)) {
    protectGraph(target, protection);
    protectWithConfig(target, protection);
    return target;
  }
  const got =
    isObject(target) && typeof target.compile === "function"
      ? "an uncompiled graph: call .compile() first"
      : typeof target;
  throw new TypeError(
    `sanitizeGraph needs a compiled graph (builder.compile()), a createAgent agent or a function returning one; got ${got}.`,
  );
}

function protectFactory(factory: (...args: unknown[]) => unknown, protection: Protection) {
  return function sanitizedGraphFactory(this: unknown, ...args: unknown[]) {
    const graph = factory.apply(this, args);
    return isPromiseLike(graph)
      ? Promise.resolve(graph).then((g) => protect(g, protection))
      : protect(graph, protection);
  };
}

function wrap(saver: CheckpointerField, { options, wrappers }: Protection): CheckpointerField {
  // true / false / undefined (stateless runs) keep their meaning; a wrapper is never wrapped again.
  if (typeof saver !== "object" || saver === null || saver instanceof SanitizingCheckpointer) return saver;
  let wrapper = wrappers.get(saver);
  if (wrapper === undefined) {
    wrapper = new SanitizingCheckpointer(saver, options);
    wrappers.set(saver, wrapper);
  }
  return wrapper;
}

/** Turns the graph's own `checkpointer` field into an accessor that wraps what is assigned. */
function protectGraph(graph: CompiledGraphLike, protection: Protection): void {
  let current = wrap(graph.checkpointer, protection);
  Object.defineProperty(graph, "checkpointer", {
    // Enumerable, as the field was: `withConfig` copies the graph's fields with a spread.
    enumerable: true,
    configurable: true,
    get: () => current,
    set: (saver: CheckpointerField) => {
      current = wrap(saver, protection);
    },
  });
}

/** `withConfig` builds a new graph (or agent) from the old one's fields: protect the result with the same wrappers. */
function protectWithConfig(target: { withConfig(config: unknown): unknown }, protection: Protection): void {
  const withConfig = target.withConfig;
  Object.defineProperty(target, "withConfig", {
    // Not enumerable, so that the spread in withConfig does not copy it into the new graph's fields.
    enumerable: false,
    configurable: true,
    writable: true,
    value: function sanitizedWithConfig(this: unknown, config: unknown) {
      return protect(withConfig.call(this, config), protection);
    },
  });
}
