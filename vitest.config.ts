import { fileURLToPath, pathToFileURL } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";
import { OTHER_LINE_RESOLVER, SERVER_PACKAGES, SERVER_TESTS } from "./test/deployment/server-lines.js";

/**
 * Tests that need no Postgres or Redis server (`npm run test:unit`) live in `test/unit/`, with the same layout as the
 * rest of `test/`; `npm test` runs these and the rest.
 */
const UNIT = ["test/unit/**/*.test.ts"];

/**
 * The long phase (`npm run test:long`, which CI runs after `npm test`): the compatibility matrix's installs and runs
 * on every LangGraph.js version set and runtime, and the seeded chaos soak.
 */
const LONG = ["test/compat/**/*.test.ts", "test/chaos/**/*.test.ts"];

/**
 * Resolves the Agent Server packages from the other line's install instead of the repository's, with Node's own
 * ESM resolution from that folder (the resolver module there is written when the line is installed).
 */
const otherServerLine: Plugin = {
  name: "other-server-line",
  enforce: "pre",
  async resolveId(id) {
    if (!SERVER_PACKAGES.test(id)) return null;
    const { resolve } = (await import(pathToFileURL(OTHER_LINE_RESOLVER).href)) as { resolve(id: string): string };
    return fileURLToPath(resolve(id));
  },
};

export default defineConfig({
  test: {
    // @langchain/langgraph-checkpoint-validation registers its suites through vitest globals.
    globals: true,
    // Fails a file that leaves process.env or a global changed after it ends (see the file).
    setupFiles: ["test/support/leak-check.ts"],
    // Most files wait on servers, child processes and sockets, not on the CPU: three at a time keep both cores of
    // a 2-core machine busy, where vitest's default (one less than the cores) runs them one by one.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // @google/generative-ai (under ChatGoogleGenerativeAI) rethrows inside a detached promise when a
    // streamed response is cut, as a cancelled run does: an unhandled rejection of the library's own,
    // after the run has already ended with its AbortError. @langchain/google-common (under ChatVertexAI)
    // reads a streamed body in a detached promise too (`ReadableAbstractStream.run`), where the aborted
    // body's AbortError from node-fetch (its transport, gaxios) escapes. Only those exact errors are let through.
    onUnhandledError: (error) =>
      error.message !== "[GoogleGenerativeAI Error]: Error reading from the stream" &&
      !(error.name === "AbortError" && /node-fetch/.test(error.stack ?? "")),
    projects: [
      // A worker keeps the modules it loaded for its next file: loading LangChain and LangGraph afresh for each file
      // cost about half the suite's CPU time. Files start their own servers, stores and graphs, so none shares state;
      // a file that sets process.env or a global puts it back, since the next file (and its child processes) would see
      // it: the leak check (setupFiles) fails one that does not.
      { extends: true, test: { name: "unit", include: UNIT, isolate: false } },
      {
        extends: true,
        test: { name: "services", include: ["test/**/*.test.ts"], exclude: ["test/unit/**", ...LONG], isolate: false },
      },
      { extends: true, test: { name: "long", include: LONG } },
      // The server tests again, on the Agent Server line the repository does not install (server-lines.ts).
      {
        extends: true,
        plugins: [otherServerLine],
        test: {
          name: "server-line",
          include: SERVER_TESTS,
          env: { SANITIZER_SERVER_LINE: "other" },
          globalSetup: ["test/deployment/server-line-setup.ts"],
        },
      },
    ],
  },
});
