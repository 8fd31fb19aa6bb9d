/**
 * The compatibility matrix: for each LangGraph.js version set (version-sets.ts), an app that installs the
 * packed package with a plain `npm install` next to those versions runs the scenarios of app/scenarios.ts on
 * MemorySaver, the package's IORedisSaver and its FastPostgresSaver, and, where the official conformance
 * suite supports the versions, that suite through the wrapper.
 *
 * Apps install in parallel and keep their folders between runs (see apps.ts); `COMPAT_SETS=1.0.0,1.7.3`
 * runs only those LangGraph versions.
 */
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { bundleInto, installApp, packPackage, run, succeeded } from "./apps.js";
import { SCENARIO_NAMES, type BACKENDS } from "./app/scenario-names.js";
import { VERSION_SETS, runsConformance, setName, type VersionSet } from "./version-sets.js";
import { POSTGRES_URL, REDIS_URL, serviceAvailable } from "../support/servers/services.js";

const only = process.env.COMPAT_SETS?.split(",");
const sets = VERSION_SETS.filter((set) => only === undefined || only.includes(set.langgraph));
const backends = [
  "memory",
  ...((await serviceAvailable("redis")) ? ["redis"] : []),
  ...((await serviceAvailable("postgres")) ? ["postgres"] : []),
] as (typeof BACKENDS)[number][];

/** What each app depends on: the set's versions pinned, the packed package, the backends' clients. */
const dependencies = (set: VersionSet, tarball: string): Record<string, string> => ({
  "langgraph-checkpoint-sanitizer": `file:${tarball}`,
  "@langchain/langgraph": set.langgraph,
  "@langchain/langgraph-checkpoint": set.checkpoint,
  "@langchain/core": set.core,
  langchain: set.langchain,
  "@langchain/langgraph-checkpoint-postgres": set.postgres,
  ioredis: "^5.4.0",
  pg: "^8.12.0",
  zod: "^3.25.76 || ^4.1.0",
  ...(runsConformance(set) ? { "@langchain/langgraph-checkpoint-validation": "1.1.1" } : {}),
});

/** Runs `tasks` at most `limit` at a time (installs and runs share two cores and one npm cache). */
async function pooled<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

type Results = Record<string, { ok: boolean; detail: string }>;
const scenarioResults = new Map<VersionSet, Results>();
const conformance = new Map<VersionSet, { code: number; summary: string; output: string }>();
/** A set whose app could not be installed or run: each of its tests fails with this. */
const failures = new Map<VersionSet, Error>();

/** Installs the set's app, runs its scenarios, and the conformance suite where it applies. */
async function runSet(set: VersionSet, tarball: string, env: NodeJS.ProcessEnv): Promise<void> {
  const dir = await installApp(setName(set), dependencies(set, tarball));
  await bundleInto("test/compat/app/scenarios.ts", join(dir, "scenarios.mjs"));
  const scenarios = succeeded(
    `the scenarios on ${setName(set)}`,
    await run("node", ["scenarios.mjs"], { cwd: dir, env }),
  );
  scenarioResults.set(set, JSON.parse(scenarios.stdout.trim().split("\n").at(-1)!) as Results);
  if (!runsConformance(set)) return;
  await bundleInto("test/compat/app/conformance.ts", join(dir, "conformance.test.mjs"));
  // The app's own vitest, which the validation package brings; its suites register through vitest's globals.
  const suite = await run("npx", ["vitest", "run", "--globals", "--reporter=dot", "conformance.test.mjs"], {
    cwd: dir,
    env: { ...env, CI: "true" },
  });
  const output = stripVTControlCharacters(`${suite.stdout}\n${suite.stderr}`);
  conformance.set(set, { code: suite.code, summary: output.match(/Tests\s+(.*)/)?.[1] ?? "no summary", output });
}

beforeAll(async () => {
  const tarball = await packPackage();
  const env = { ...process.env, COMPAT_BACKENDS: backends.join(","), REDIS_URL, POSTGRES_URL };
  await pooled(
    sets.map((set) => () => runSet(set, tarball, env).catch((error: Error) => void failures.set(set, error))),
    3,
  );
}, 1_200_000);

describe.each(sets)(
  "an app on @langchain/langgraph $langgraph (checkpoint $checkpoint, core $core, langchain $langchain)",
  (set) => {
    it.each(backends.flatMap((backend) => SCENARIO_NAMES.map((scenario) => `${backend} / ${scenario}`)))(
      "%s",
      (name) => {
        if (failures.has(set)) throw failures.get(set)!;
        const result = scenarioResults.get(set)![name];
        expect(result, `${name} did not run`).toBeDefined();
        expect(result!.ok, result!.detail).toBe(true);
      },
    );

    it.runIf(runsConformance(set))(
      "the official conformance suite passes through the wrapper (MemorySaver, IORedisSaver)",
      () => {
        if (failures.has(set)) throw failures.get(set)!;
        const { code, summary, output } = conformance.get(set)!;
        expect(code, output.slice(-6000)).toBe(0);
        expect(summary).toMatch(/passed/);
      },
    );
  },
);
