/**
 * The main entry on the runtimes apps deploy to: one app installs the packed package next to LangGraph.js 1.7.3
 * with a plain `npm install`, and the runtimes themselves as npm packages; app/runtime-scenario.ts (a cancelled
 * turn, then the next message, on MemorySaver raw, through `SanitizingCheckpointer` and through `sanitizeGraph`,
 * and `repairMessages`) then runs on each of them:
 *
 * - Node 22 and 24: `node-linux-<arch>` (the binary the `node` package's preinstall would fetch with a nested
 *   `npm install`), installed under the aliases `node-22` and `node-24`;
 * - Bun: `bun` (its postinstall moves the binary out of `@oven/bun-<platform>`);
 * - Deno: `deno` (its postinstall copies the binary out of `@deno/<platform>`), reading the app's `node_modules`;
 * - workerd: `miniflare` (which brings `workerd`), through its API, on a Worker bundled with every package
 *   included: once as wrangler bundles by default (the packages' browser builds), once from their Node builds,
 *   whose `node:*` imports `nodejs_compat` provides.
 *
 * Every one of these install scripts finds its binary in an npm package, and falls back only to the npm registry.
 * A runtime with no package for this platform is skipped with a message; under CI=true it fails instead.
 * The app keeps its folder between runs (see apps.ts).
 */
import { build, type Metafile } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it, type TestContext } from "vitest";
import { bundleInto, installApp, packPackage, run, succeeded } from "./apps.js";
import type { Results } from "./app/runtime-scenario.js";

const LANGGRAPH = {
  "@langchain/langgraph": "1.7.3",
  "@langchain/langgraph-checkpoint": "1.2.2",
  "@langchain/core": "1.4.0",
};
const NODE_VERSIONS = ["22.23.3", "24.21.0"] as const;
const BUN = "1.4.5";
const DENO = "2.9.6";
const MINIFLARE = "4.20260730.0";
const COMPATIBILITY_DATE = "2026-08-01";

/** What app/runtime-scenario.ts checks, besides naming its runtime. */
const CHECKS = [
  "raw MemorySaver: the next message is rejected",
  "SanitizingCheckpointer over MemorySaver: the next message is answered",
  "sanitizeGraph: the next message is answered",
  "repairMessages: a broken list is repaired",
];

/** The tiny command-line entry: the scenario's results as one line of JSON. */
const CLI = `import { runScenario } from "./runtime-scenario.mjs";\nconsole.log(JSON.stringify(await runScenario()));\n`;

const glibc = (() => {
  if (process.platform !== "linux") return true;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime !== undefined;
})();
const platform = `${process.platform}-${process.arch}${glibc ? "" : "-musl"}`;

interface Runtime {
  /** The test's title. */
  title: string;
  /** The npm packages that deliver it here, or why none does. */
  packages: Record<string, string> | string;
  /** The binary to run, in the app. */
  binary: (dir: string) => string;
  /** How it runs the command-line entry; workerd runs through miniflare's API instead. */
  args?: string[];
  /** What the scenario reads as its runtime. */
  name: string;
}

const unsupported = (what: string) => `${what} has no npm package for ${platform}`;

/** Node's binaries are published per platform; these two hold both versions, as the `node` package would pick. */
const nodePackage = (version: string): string | undefined =>
  ["linux-x64", "linux-arm64"].includes(platform) ? `npm:node-${platform}@${version}` : undefined;

const RUNTIMES: Runtime[] = [
  ...NODE_VERSIONS.map((version) => ({
    title: `Node ${version}`,
    packages: nodePackage(version)
      ? { [`node-${version.split(".")[0]}`]: nodePackage(version)! }
      : unsupported(`Node ${version}`),
    binary: (dir: string) => join(dir, "node_modules", `node-${version.split(".")[0]}`, "bin", "node"),
    args: ["cli.mjs"],
    name: `Node ${version}`,
  })),
  {
    title: `Bun ${BUN}`,
    packages:
      ["linux", "darwin", "win32", "freebsd", "android"].includes(process.platform) &&
      ["x64", "arm64"].includes(process.arch)
        ? { bun: BUN }
        : unsupported("Bun"),
    binary: (dir) => join(dir, "node_modules", ".bin", "bun"),
    // No auto-install: every import comes from the app's node_modules.
    args: ["--no-install", "cli.mjs"],
    name: `Bun ${BUN}`,
  },
  {
    title: `Deno ${DENO}`,
    packages:
      ["linux", "darwin", "win32"].includes(process.platform) && ["x64", "arm64"].includes(process.arch) && glibc
        ? { deno: DENO }
        : unsupported("Deno"),
    binary: (dir) => join(dir, "node_modules", ".bin", "deno"),
    // The app's node_modules as npm installed it. The least these versions need is `--allow-sys=homedir`
    // (langsmith, under @langchain/core, reads the home directory); apps commonly grant all, as here.
    args: ["run", "--allow-all", "--node-modules-dir=manual", "cli.mjs"],
    name: `Deno ${DENO}`,
  },
  {
    title: `workerd (miniflare ${MINIFLARE})`,
    packages:
      ["linux", "darwin"].includes(process.platform) && ["x64", "arm64"].includes(process.arch) && glibc
        ? { miniflare: MINIFLARE }
        : unsupported("workerd"),
    binary: (dir) => join(dir, "node_modules", ".bin", "workerd"),
    name: "workerd",
  },
];

/**
 * How the Worker is bundled: every package included, `node:*` left to workerd's `nodejs_compat`. wrangler's
 * defaults pick LangGraph's browser build, which imports no Node built-in; its Node build needs
 * `node:async_hooks` (and langsmith's, `node:fs` and more).
 */
const WORKER_BUNDLES = {
  "as wrangler bundles it (the packages' browser builds)": {
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    langgraphImports: [],
  },
  "from the packages' Node builds, node:* from nodejs_compat": {
    platform: "neutral",
    conditions: ["workerd", "worker", "node"],
    mainFields: ["module", "main"],
    langgraphImports: ["node:async_hooks"],
  },
} as const;

/** The runtimes' children: nothing vitest sets for Node, no tracing, no update check or crash upload, no prompt. */
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_OPTIONS: undefined,
  NODE_ENV: undefined,
  DO_NOT_TRACK: "1",
  LANGSMITH_TRACING: "false",
  LANGCHAIN_TRACING_V2: "false",
  DENO_NO_UPDATE_CHECK: "1",
  DENO_NO_PROMPT: "1",
  NO_COLOR: "1",
};

let app: string | undefined;
let installFailure: Error | undefined;
/** Why a runtime installed but will not run here (its `--version` failed). */
const broken = new Map<Runtime, string>();

beforeAll(async () => {
  try {
    const tarball = await packPackage();
    const dependencies = Object.assign(
      { "langgraph-checkpoint-sanitizer": `file:${tarball}`, ...LANGGRAPH },
      ...RUNTIMES.map((runtime) => (typeof runtime.packages === "string" ? {} : runtime.packages)),
    ) as Record<string, string>;
    const dir = await installApp("runtimes", dependencies);
    await bundleInto("test/compat/app/runtime-scenario.ts", join(dir, "runtime-scenario.mjs"));
    writeFileSync(join(dir, "cli.mjs"), CLI);
    for (const runtime of RUNTIMES) {
      if (typeof runtime.packages === "string") continue;
      const version = await run(runtime.binary(dir), ["--version"], { cwd: dir, env, timeoutMs: 30_000 });
      if (version.code !== 0) broken.set(runtime, `${runtime.title} does not run here: ${version.stderr.trim()}`);
    }
    app = dir;
  } catch (error) {
    installFailure = error as Error;
  }
}, 900_000);

/** The app, or a skip (a failure under CI=true) when `runtime` cannot be installed or run on this platform. */
function appFor(runtime: Runtime, context: TestContext): string {
  if (installFailure) throw installFailure;
  const why = typeof runtime.packages === "string" ? runtime.packages : broken.get(runtime);
  if (why !== undefined) {
    if (process.env.CI === "true") throw new Error(`${why}; CI requires it.`);
    console.warn(`Skipping ${runtime.title}: ${why}.`);
    context.skip(why);
  }
  return app!;
}

/** Fails unless the scenario ran on `runtime` and every check passed. */
function expectPassed(results: Results, runtime: Runtime) {
  expect(results.runtime?.detail, "the runtime the scenario ran on").toBe(runtime.name);
  expect(Object.keys(results)).toEqual(expect.arrayContaining(CHECKS));
  for (const [name, { ok, detail }] of Object.entries(results)) expect(ok, `${name}: ${detail}`).toBe(true);
}

/** The results printed by the command-line entry: its last line. */
const printed = (stdout: string): Results => JSON.parse(stdout.trim().split("\n").at(-1)!) as Results;

interface MiniflareModule {
  Miniflare: new (options: Record<string, unknown>) => {
    dispatchFetch(url: string): Promise<{ status: number; text(): Promise<string> }>;
    dispose(): Promise<void>;
  };
}

/** Bundles the scenario (already in the app, packages external) with every package the app installed. */
async function bundleWorker(
  dir: string,
  outfile: string,
  options: (typeof WORKER_BUNDLES)[keyof typeof WORKER_BUNDLES],
) {
  const { metafile } = await build({
    entryPoints: [join(dir, "runtime-scenario.mjs")],
    outfile,
    absWorkingDir: dir,
    bundle: true,
    format: "esm",
    target: "es2022",
    platform: options.platform,
    conditions: [...options.conditions],
    mainFields: [...options.mainFields],
    external: ["node:*"],
    metafile: true,
    logLevel: "error",
  });
  return metafile;
}

/** The `node:*` modules each bundled package imports. */
function nodeImports(metafile: Metafile): Record<string, string[]> {
  const byPackage: Record<string, string[]> = {};
  for (const [file, input] of Object.entries(metafile.inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(file)?.[1] ?? file;
    for (const { path } of input.imports.filter((i) => i.path.startsWith("node:"))) {
      const paths = (byPackage[name] ??= []);
      if (!paths.includes(path)) paths.push(path);
    }
  }
  return byPackage;
}

describe(`the main entry on other runtimes (LangGraph.js ${LANGGRAPH["@langchain/langgraph"]}, on ${platform})`, () => {
  for (const runtime of RUNTIMES.filter((r) => r.args !== undefined)) {
    it(runtime.title, async (context) => {
      const dir = appFor(runtime, context);
      const result = succeeded(
        `the scenario on ${runtime.title}`,
        await run(runtime.binary(dir), runtime.args!, { cwd: dir, env, timeoutMs: 60_000 }),
      );
      expectPassed(printed(result.stdout), runtime);
    });
  }

  const workerd = RUNTIMES.find((r) => r.name === "workerd")!;
  for (const [how, options] of Object.entries(WORKER_BUNDLES)) {
    it(`${workerd.title}, ${how}`, async (context) => {
      const dir = appFor(workerd, context);
      const outfile = join(dir, `worker-${options.platform}.mjs`);
      const metafile = await bundleWorker(dir, outfile, options);
      // Everything comes from the app: nothing resolved to this repository's node_modules.
      expect(Object.keys(metafile.inputs).filter((file) => file.startsWith(".."))).toEqual([]);
      // The package's own modules import no Node built-in, whichever LangGraph build the bundle holds.
      const imports = nodeImports(metafile);
      expect(imports["langgraph-checkpoint-sanitizer"]).toBeUndefined();
      expect(imports["@langchain/langgraph"] ?? []).toEqual(options.langgraphImports);

      const require = createRequire(join(dir, "package.json"));
      const { Miniflare } = (await import(pathToFileURL(require.resolve("miniflare")).href)) as MiniflareModule;
      // The bundle as the one module wrangler uploads: workerd resolves its dynamic imports when they run (an
      // optional peer not installed then fails, and is caught), where miniflare's module rules would refuse them.
      const miniflare = new Miniflare({
        modules: [{ type: "ESModule", path: outfile, contents: readFileSync(outfile, "utf8") }],
        modulesRoot: dir,
        compatibilityDate: COMPATIBILITY_DATE,
        compatibilityFlags: ["nodejs_compat"],
        // The placeholder `request.cf`: by default miniflare downloads one from Cloudflare (outside vitest).
        cf: false,
      });
      try {
        const response = await miniflare.dispatchFetch("http://localhost/");
        const body = await response.text();
        expect(response.status, body.slice(0, 4000)).toBe(200);
        expectPassed(JSON.parse(body) as Results, workerd);
      } finally {
        await miniflare.dispose();
      }
    });
  }
});
