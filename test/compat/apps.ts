/**
 * Apps as users have them: a folder with its own package.json pinning LangGraph.js versions, the packed
 * package installed next to them with a plain `npm install` (no flags), and programs bundled from this
 * repository's TypeScript with every package left to the app's own `node_modules`.
 *
 * Apps live outside the repository, so that nothing resolves to the repository's own `node_modules`. Each
 * keeps its folder between runs: a second run installs only what changed (the packed package, each time),
 * and npm's cache serves the rest.
 */
import { build } from "esbuild";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const APPS = join(tmpdir(), "langgraph-checkpoint-sanitizer-apps");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (never rejects: the caller reads `code`). */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: error && code === 1 && !stderr ? String(error) : stderr });
      },
    );
  });
}

/** Fails with the command's output unless it succeeded. */
export function succeeded(what: string, result: Run): Run {
  if (result.code !== 0) {
    throw new Error(
      `${what} failed (exit ${result.code}):\n${result.stderr.slice(-4000)}\n${result.stdout.slice(-4000)}`,
    );
  }
  return result;
}

/**
 * `npm pack` of the built package, once per content: the tarball's name carries a hash of `dist/` and
 * package.json, so an app reinstalls the package exactly when it changed.
 */
export async function packPackage(): Promise<string> {
  if (!existsSync(join(REPO, "dist/esm/index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm test does).");
  }
  const hash = createHash("sha256");
  const hashTree = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) hashTree(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  hashTree(join(REPO, "dist"));
  hash.update(readFileSync(join(REPO, "package.json")));
  const dir = join(APPS, "packed", hash.digest("hex").slice(0, 16));
  const existing = existsSync(dir) && readdirSync(dir).find((f) => f.endsWith(".tgz"));
  if (existing) return join(dir, existing);
  mkdirSync(dir, { recursive: true });
  // dist/ is built by `npm test` before any test runs: pack it as it is, without rebuilding.
  const packed = succeeded(
    "npm pack",
    await run("npm", ["pack", "--ignore-scripts", "--pack-destination", dir, "--loglevel=error"], { cwd: REPO }),
  );
  return join(dir, packed.stdout.trim().split("\n").at(-1)!);
}

/**
 * Installs an app named `name` with `dependencies` (versions pinned, the packed package as a `file:` path)
 * by a plain `npm install`, and checks that it holds one copy of `@langchain/core`. Returns its folder.
 */
export async function installApp(name: string, dependencies: Record<string, string>): Promise<string> {
  const dir = join(APPS, name);
  mkdirSync(dir, { recursive: true });
  const manifest = { name: `compat-${name}`, private: true, type: "module", dependencies };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const install = await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir });
  if (install.code !== 0) {
    // A folder left by an older run can hold a tree npm will not reconcile: start that app again from scratch.
    rmSync(join(dir, "node_modules"), { recursive: true, force: true });
    rmSync(join(dir, "package-lock.json"), { force: true });
    succeeded(
      `npm install in ${dir}`,
      await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir }),
    );
  }
  const copies = succeeded(
    `npm ls @langchain/core in ${dir}`,
    await run("npm", ["ls", "@langchain/core", "--all", "--parseable"], { cwd: dir }),
  )
    .stdout.split("\n")
    .filter((line) => line.trim() !== "");
  if (new Set(copies).size !== 1)
    throw new Error(`${dir} holds ${copies.length} copies of @langchain/core:\n${copies.join("\n")}`);
  return dir;
}

/** Bundles `entry` (a file of this repository) into `outfile` in the app, leaving every package to the app. */
export async function bundleInto(entry: string, outfile: string, platform: "node" | "neutral" = "node"): Promise<void> {
  await build({
    entryPoints: [join(REPO, entry)],
    outfile,
    bundle: true,
    format: "esm",
    platform,
    target: "es2022",
    packages: "external",
    logLevel: "error",
  });
}
