// The Agent Server sets `graph.checkpointer` to its own saver on every request, so the field becomes an accessor that
// wraps what is assigned (docs/deployment.md). Duck-typed: the main entry loads without langgraph or langchain.
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { BreakpointNodes } from "../checkpointer/breakpoints.js";
import { copyInputLists } from "../checkpointer/run-input.js";
import { nextStepOfInput, withRunContext, type RunContext } from "../checkpointer/run-context.js";
import type { ReadReports } from "../checkpointer/read-reports.js";
import { isNestedRun } from "../checkpointer/tail-policy.js";
import {
  readReports,
  resolveSanitizerOptions,
  sanitizeRunInput,
  SanitizingCheckpointer,
  type ResolvedSanitizerOptions,
  type SanitizingCheckpointerOptions,
} from "../checkpointer/sanitizing-checkpointer.js";
import { RunTracker } from "./run-tracker.js";

/** A saver, `true` (inherit the parent's), `false` (none), or unset. */
type CheckpointerField = BaseCheckpointSaver | boolean | undefined;

interface CompiledGraphLike {
  checkpointer?: CheckpointerField;
  interruptBefore?: BreakpointNodes;
  interruptAfter?: BreakpointNodes;
  withConfig(config: unknown): unknown;
  getState(config: unknown): unknown;
  /** Every `invoke`, `stream` and `streamEvents` of a LangChain runnable runs this generator. */
  _streamIterator(input: unknown, options?: RunnableConfig): AsyncGenerator<unknown>;
}

/** `createAgent`'s result: its inner compiled `.graph` is what runs. */
interface AgentLike {
  graph: CompiledGraphLike;
  /** Since langchain 1.1. */
  withConfig?(config: unknown): unknown;
}

/** One call's options, runs and wrappers, shared with derived graphs: one wrapper per saver and set of breakpoints. */
interface Protection {
  /** Validated once, when `sanitizeGraph` is called. */
  resolved: ResolvedSanitizerOptions;
  runs: RunTracker;
  wrappers: WeakMap<BaseCheckpointSaver, Map<string, SanitizingCheckpointer>>;
  /** Never wrapped again. */
  own: WeakSet<SanitizingCheckpointer>;
  /** For the input of runs without a checkpointer. */
  reports?: ReadReports;
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

const isSaver = (field: CheckpointerField): field is BaseCheckpointSaver => isObject(field);

function isAgent(value: unknown): value is AgentLike {
  return isObject(value) && isCompiledGraph(value.graph);
}

/** LangGraph's own `isGraphDrained`, by name: LangGraph is not imported here. */
const isGraphDrained = (error: unknown): boolean => isObject(error) && error.name === "GraphDrained";

/** Not enumerable, so withConfig's spread does not copy it. */
function replaceMethod(target: object, name: string, method: (...args: never[]) => unknown): void {
  Object.defineProperty(target, name, { enumerable: false, configurable: true, writable: true, value: method });
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  isObject(value) && typeof value.then === "function";

/**
 * Reads whatever saver is, or is later, set on the graph (by `compile`, `langgraph dev`, the Agent Server or an embed
 * server) through a {@link SanitizingCheckpointer} with `options`. Takes a compiled graph, a graph factory (sync or
 * async) or a `createAgent` agent and returns the same kind, protected in place; `.withConfig(…)` stays protected.
 * Options are validated here, not on the first request.
 *
 * @example
 * ```ts
 * // langgraph.json: { "graphs": { "agent": "./src/agent.ts:graph" } }
 * export const graph = sanitizeGraph(builder.compile());
 * ```
 */
export function sanitizeGraph<T>(graph: T, options: SanitizingCheckpointerOptions = {}): T {
  const resolved = resolveSanitizerOptions(options);
  return protect(graph, { resolved, runs: new RunTracker(), wrappers: new WeakMap(), own: new WeakSet() });
}

function protect<T>(target: T, protection: Protection): T {
  if (typeof target === "function") return protectFactory(target as (...args: unknown[]) => unknown, protection) as T;
  if (isAgent(target)) {
    protect(target.graph, protection);
    if (typeof target.withConfig === "function") protectWithConfig(target as Required<AgentLike>, protection);
    return target;
  }
  if (isCompiledGraph(target)) {
    protectGraph(target, protection);
    protectRuns(target, protection);
    protectUpdates(target);
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

/** An app's own `SanitizingCheckpointer` is not wrapped again: its saver is read with its options and the graph's. */
function wrap(saver: CheckpointerField, graph: CompiledGraphLike, protection: Protection): CheckpointerField {
  // true / false / undefined (stateless runs) keep their meaning.
  if (!isSaver(saver)) return saver;
  if (saver instanceof SanitizingCheckpointer && protection.own.has(saver)) return saver;
  const resolved = saver instanceof SanitizingCheckpointer ? saver.resolved : protection.resolved;
  const { interruptBefore = graph.interruptBefore, interruptAfter = graph.interruptAfter } = resolved.breakpoints;
  const key = JSON.stringify([interruptBefore ?? [], interruptAfter ?? []]);
  let byBreakpoints = protection.wrappers.get(saver);
  if (byBreakpoints === undefined) protection.wrappers.set(saver, (byBreakpoints = new Map()));
  let wrapper = byBreakpoints.get(key);
  if (wrapper === undefined) {
    const inner = saver instanceof SanitizingCheckpointer ? saver.inner : saver;
    wrapper = SanitizingCheckpointer.serving(inner, resolved, { interruptBefore, interruptAfter }, protection.runs);
    byBreakpoints.set(key, wrapper);
    protection.own.add(wrapper);
  }
  return wrapper;
}

function protectGraph(graph: CompiledGraphLike, protection: Protection): void {
  let current = wrap(graph.checkpointer, graph, protection);
  Object.defineProperty(graph, "checkpointer", {
    // Enumerable, as the field was: `withConfig` copies the graph's fields with a spread.
    enumerable: true,
    configurable: true,
    get: () => current,
    set: (saver: CheckpointerField) => {
      current = wrap(saver, graph, protection);
    },
  });
}

/**
 * Each run carries what its input does with the pending tasks, and is tracked by thread while in flight. A run with
 * no checkpointer has only its input, repaired here as a first read would.
 */
function protectRuns(graph: CompiledGraphLike, protection: Protection): void {
  const { runs, resolved } = protection;
  const streamIterator = graph._streamIterator;
  if (typeof streamIterator !== "function") return;
  replaceMethod(
    graph,
    "_streamIterator",
    async function* sanitizedStreamIterator(this: unknown, input: unknown, options?: RunnableConfig) {
      // Tool results in the input answer calls made before it: the run's first read moves them into the history.
      const { input: runInput, lists } = copyInputLists(input);
      const run: RunContext = { next: lists ? "new-input" : nextStepOfInput(input), inputLists: lists };
      if (lists && !isSaver(graph.checkpointer) && !isNestedRun(options)) {
        const reports = (protection.reports ??= readReports(resolved));
        if (reports.telemetry?.loading) await reports.telemetry.loading;
        sanitizeRunInput(reports, resolved.settings, options, lists);
      }
      const thread = options?.configurable?.thread_id;
      const iterator = streamIterator.call(this, runInput, withRunContext(options, run));
      if (thread === undefined || thread === null) return yield* iterator;
      const threadId = String(thread);
      runs.start(threadId);
      let stopped = false;
      const end = (ok: boolean) => {
        if (!stopped) runs.stop(threadId);
        stopped = true;
        runs.settle(threadId, run, ok);
      };
      // A cancelled run's stream may never close (a task may ignore the abort): the abort frees the thread.
      const signal = options?.signal;
      const onAbort = () => end(false);
      signal?.addEventListener("abort", onAbort, { once: true });
      let ok = false;
      try {
        yield* iterator;
        ok = true;
      } catch (error) {
        // A drained run (RunControl, on server shutdown) stopped at a step boundary to be resumed, not broken off.
        ok = isGraphDrained(error);
        throw error;
      } finally {
        signal?.removeEventListener("abort", onAbort);
        end(ok);
      }
    },
  );
}

/** Their reads keep the tail as stored, so an edit never stores a repair of a tail the app may still resume. */
function protectUpdates(graph: CompiledGraphLike): void {
  for (const name of ["updateState", "bulkUpdateState"] as const) {
    const update = (graph as unknown as Record<string, unknown>)[name];
    if (typeof update !== "function") continue;
    replaceMethod(graph, name, function sanitizedUpdate(this: unknown, config: RunnableConfig, ...rest: unknown[]) {
      return update.call(this, withRunContext(config, { next: "resume" }), ...rest);
    });
  }
}

/** `withConfig` builds a new graph from the old one's fields: protect the result with the same wrappers. */
function protectWithConfig(target: { withConfig(config: unknown): unknown }, protection: Protection): void {
  const withConfig = target.withConfig;
  replaceMethod(target, "withConfig", function sanitizedWithConfig(this: unknown, config: unknown) {
    return protect(withConfig.call(this, config), protection);
  });
}
