/**
 * Fails a test file that leaves `process.env` or a global changed after its tests end (a `setupFiles` entry of every
 * vitest project). Workers run file after file in one process (`isolate: false`), and child processes inherit
 * `process.env`, so what one file leaves behind changes what the next one sees.
 *
 * The snapshot is taken when this file runs, just before the test file is imported (so its top-level code counts),
 * and compared in an `afterAll` registered before any of the file's own: vitest runs `afterAll` hooks last-registered
 * first (`sequence.hooks: "stack"`, its default), so this one sees the state after the file's own clean-up.
 */
import { afterAll } from "vitest";

/** The helpers tslib 2 (`node_modules/tslib/tslib.js`) defines; see LAZY_GLOBALS. */
const TSLIB_HELPERS = [
  "__extends",
  "__assign",
  "__rest",
  "__decorate",
  "__param",
  "__esDecorate",
  "__runInitializers",
  "__propKey",
  "__setFunctionName",
  "__metadata",
  "__awaiter",
  "__generator",
  "__exportStar",
  "__createBinding",
  "__values",
  "__read",
  "__spread",
  "__spreadArrays",
  "__spreadArray",
  "__await",
  "__asyncGenerator",
  "__asyncDelegator",
  "__asyncValues",
  "__makeTemplateObject",
  "__importStar",
  "__importDefault",
  "__classPrivateFieldGet",
  "__classPrivateFieldSet",
  "__classPrivateFieldIn",
  "__addDisposableResource",
  "__disposeResources",
  "__rewriteRelativeImportExtension",
];

/**
 * Globals a library installs once, the first time it is loaded or used, as a process-wide cache or registry that later
 * loads reuse: not state a test left, and no test could remove it without the next load installing it again. Only
 * their addition is allowed; a change or removal still fails. Each entry says which library and why.
 */
const LAZY_GLOBALS: ReadonlyMap<string, string> = new Map<string, string>([
  [
    "lc_block_translators_registry",
    "@langchain/core's content-block translators by provider, a Map it creates when its messages module loads",
  ],
  [
    `Symbol.for("graceful-fs.queue")`,
    "graceful-fs (bundled in playwright-core's utilsBundle) keeps its retry queue for fs calls here, created on load",
  ],
  [
    `Symbol.for("signal-exit emitter")`,
    "signal-exit (bundled in playwright-core) installs one process-wide exit-signal emitter, created on load",
  ],
  [`Symbol.for("ls:tracing_async_local_storage")`, "@langchain/core's AsyncLocalStorage for run context, set on load"],
  ["__zod_globalConfig", "zod 4's configuration, shared by every copy of zod, created when zod loads"],
  ["__zod_globalRegistry", "zod 4's schema metadata registry, shared by every copy of zod, created when zod loads"],
  [`Symbol.for("langgraph-zod")`, "@langchain/langgraph's set of zod prototypes it has extended, created on load"],
  [
    `Symbol.for("openai.node.providerDefinitions.v1")`,
    "the openai SDK's WeakMap of provider definitions, shared by its copies, created on load",
  ],
  [
    `Symbol.for("undici.globalDispatcher.1")`,
    "Node's fetch (undici) creates its connection pool the first time fetch is called",
  ],
  [
    `Symbol.for("deepagents.harness-profiles.v1")`,
    "deepagents' registry of model profiles, shared by its copies, made and filled with its built-in profiles the " +
      "first time createDeepAgent looks one up for a real chat model",
  ],
  [
    "awslambda",
    "@aws/lambda-invoke-store (under the AWS SDK of ChatBedrockConverse) creates it on load to share its store",
  ],
  [
    `Symbol.for("opentelemetry.js.api.1")`,
    "@opentelemetry/api's registry of global providers, created by the first registration and kept after " +
      "`disable()`; what it holds is checked below (a provider left registered fails)",
  ],
  ...TSLIB_HELPERS.map(
    (name) =>
      [
        name,
        "tslib's CommonJS build (which the AWS SDK under ChatBedrockConverse loads) puts each of its helpers on " +
          "the global object as well as on its exports, on load",
      ] as const,
  ),
]);

/** How a key of `globalThis` is written in the allow-list and in the error. */
const nameOf = (key: string | symbol): string => {
  if (typeof key === "string") return key;
  const registered = Symbol.keyFor(key);
  return registered === undefined ? `Symbol(${key.description ?? ""})` : `Symbol.for(${JSON.stringify(registered)})`;
};

/**
 * What @opentelemetry/api's global registry holds besides its version: the providers registered globally
 * (`trace`, `metrics`, `context`, `propagation`, `diag`). A test that registers one unregisters it (`disable()`).
 */
const OTEL_REGISTRY = Symbol.for("opentelemetry.js.api.1");
const otelRegistered = (): string[] =>
  Object.keys((globalThis as Record<symbol, object | undefined>)[OTEL_REGISTRY] ?? {}).filter(
    (key) => key !== "version",
  );

/**
 * Node defines most web globals (`Request`, `Response`, `Blob`, `DOMException`, ...) as accessors, with a setter, that
 * load their module on first read and replace themselves with the value. Read them now, as their first use would, so
 * that a later replacement (as @hono/node-server replaces `Request` and `Response`) shows as a change of value, and a
 * first read as none. Reading the other accessors with a setter (`process`, `Buffer`, `performance`) changes nothing.
 */
for (const key of Reflect.ownKeys(globalThis)) {
  const { get, set } = Object.getOwnPropertyDescriptor(globalThis, key) ?? {};
  if (get && set) void (globalThis as Record<string | symbol, unknown>)[key];
}

const envBefore = new Map(Object.entries(process.env));
const otelBefore = new Set(otelRegistered());
const globalsBefore = new Map(
  Reflect.ownKeys(globalThis).map((key) => [key, Object.getOwnPropertyDescriptor(globalThis, key)!] as const),
);

/** Whether a global's property changed: another value, or other accessors. */
const changed = (before: PropertyDescriptor, after: PropertyDescriptor): boolean =>
  !Object.is(before.value, after.value) || before.get !== after.get || before.set !== after.set;

afterAll(() => {
  const problems: string[] = [];

  const envAfter = new Map(Object.entries(process.env));
  const added = [...envAfter.keys()].filter((key) => !envBefore.has(key));
  const removed = [...envBefore.keys()].filter((key) => !envAfter.has(key));
  const changedEnv = [...envBefore].filter(([key, value]) => envAfter.has(key) && envAfter.get(key) !== value);
  if (added.length > 0) problems.push(`process.env keys added: ${added.join(", ")}`);
  if (changedEnv.length > 0) problems.push(`process.env keys changed: ${changedEnv.map(([key]) => key).join(", ")}`);
  if (removed.length > 0) problems.push(`process.env keys removed: ${removed.join(", ")}`);

  const globalsAfter = new Map(
    Reflect.ownKeys(globalThis).map((key) => [key, Object.getOwnPropertyDescriptor(globalThis, key)!] as const),
  );
  const addedGlobals = [...globalsAfter.keys()].filter(
    (key) => !globalsBefore.has(key) && !LAZY_GLOBALS.has(nameOf(key)),
  );
  const changedGlobals = [...globalsBefore].filter(
    ([key, before]) => globalsAfter.has(key) && changed(before, globalsAfter.get(key)!),
  );
  const removedGlobals = [...globalsBefore.keys()].filter((key) => !globalsAfter.has(key));
  if (addedGlobals.length > 0) problems.push(`globals added: ${addedGlobals.map(nameOf).join(", ")}`);
  if (changedGlobals.length > 0)
    problems.push(`globals changed: ${changedGlobals.map(([key]) => nameOf(key)).join(", ")}`);
  if (removedGlobals.length > 0) problems.push(`globals removed: ${removedGlobals.map(nameOf).join(", ")}`);

  const otelAdded = otelRegistered().filter((key) => !otelBefore.has(key));
  if (otelAdded.length > 0) {
    problems.push(`OpenTelemetry global API still registered (call its disable()): ${otelAdded.join(", ")}`);
  }

  if (problems.length > 0) {
    throw new Error(
      `This test file left process-wide state changed after its tests ended (the next file in this worker, and the ` +
        `child processes it starts, would see it):\n  ${problems.join("\n  ")}\n` +
        `Save the old value before changing it and restore it in afterAll (delete what was absent). A library that ` +
        `installs a global cache on first load belongs in LAZY_GLOBALS in test/support/leak-check.ts, with why.`,
    );
  }
});
