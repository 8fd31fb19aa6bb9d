/**
 * The two Agent Server lines users have: `npm install @langchain/langgraph-cli` (and -api, -sdk) installs the
 * `latest` tag, 1.5.1 (SDK 1.15); apps that took 2.0.0 before it was deprecated have 2.0.0. The repository's own
 * install has the `latest` line; the `server-line` test project runs the same server tests again with 2.0.0,
 * installed into `.server-lines/` in the repository (so that LangGraph and core still resolve to the
 * repository's single copies).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** Where the other line is installed. */
export const OTHER_LINE_DIR = join(REPO, ".server-lines");

/** The packages of the other line: 2.0.0, deprecated. */
export const OTHER_LINE: Record<string, string> = {
  "@langchain/langgraph-api": "2.0.0",
  "@langchain/langgraph-sdk": "2.0.0",
  "@langchain/langgraph-cli": "2.0.0",
};

/** A module in the other line's folder whose `resolve(id)` is `import.meta.resolve` from there. */
export const OTHER_LINE_RESOLVER = join(OTHER_LINE_DIR, "resolve.mjs");

/** The packages the other line replaces, as test files import them. */
export const SERVER_PACKAGES = /^@langchain\/langgraph-(api|sdk)(\/.*)?$/;

/** The server tests, which the `server-line` project runs again on the other line. */
export const SERVER_TESTS = [
  "test/deployment/langgraph-server.test.ts",
  "test/deployment/langgraph-cli.test.ts",
  "test/deployment/agent-server.test.ts",
];

/** Whether this process runs the server tests against the other line. */
export const onOtherLine = process.env.SANITIZER_SERVER_LINE === "other";

/** The root a server package resolves from in this process. */
const resolveRoot = () => (onOtherLine ? join(OTHER_LINE_DIR, "package.json") : join(REPO, "package.json"));

/** The version of `pkg` the server tests use in this process. */
export function serverPackageVersion(pkg: "api" | "sdk" | "cli"): string {
  const require = createRequire(resolveRoot());
  const main = require.resolve(`@langchain/langgraph-${pkg}/package.json`);
  return (JSON.parse(readFileSync(main, "utf8")) as { version: string }).version;
}

/** The `langgraphjs` binary of the CLI the server tests use in this process. */
export const langgraphCli = () => join(onOtherLine ? OTHER_LINE_DIR : REPO, "node_modules/.bin/langgraphjs");

/**
 * The status a running run cancelled with "interrupt" ends in: 1.5 records `interrupted`; 2.0 records `error`
 * for any run that ends by an error, a cancellation included.
 */
export const cancelledRunStatus = () => (serverPackageVersion("api").startsWith("2.") ? "error" : "interrupted");

/**
 * Whether the server streams a run with agent-chat-ui's exact options: 2.0 fails any such run, raw graphs alike, with
 * "TypeError: Cannot read properties of undefined (reading 'map')" while it has `stream_subgraphs` set.
 */
export const streamsSubgraphsResumably = () => !serverPackageVersion("api").startsWith("2.");
/** Installs the other line once; a later run reuses it while the package list is the same. */
export async function installOtherLine(install: (dir: string) => Promise<void>): Promise<void> {
  const manifest = { name: "server-lines", private: true, dependencies: OTHER_LINE };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const path = join(OTHER_LINE_DIR, "package.json");
  const installed = join(OTHER_LINE_DIR, "node_modules/.installed");
  if (existsSync(installed) && readFileSync(installed, "utf8") === text) return;
  mkdirSync(OTHER_LINE_DIR, { recursive: true });
  writeFileSync(path, text);
  await install(OTHER_LINE_DIR);
  writeFileSync(OTHER_LINE_RESOLVER, "export const resolve = (id) => import.meta.resolve(id);\n");
  writeFileSync(installed, text);
}
