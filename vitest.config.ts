import { defineConfig } from "vitest/config";

/** Tests that need no Postgres or Redis server (`npm run test:unit`); `npm test` runs these and the rest. */
const UNIT = [
  "test/repair/**/*.test.ts",
  "test/patterns/**/*.test.ts",
  "test/graph/**/*.test.ts",
  "test/package/**/*.test.ts",
  "test/checkpointer/wrapper-contract.test.ts",
  "test/checkpointer/thread-state.test.ts",
  "test/serde/fast-jsonplus-serializer.test.ts",
  "test/agents/model-request-middleware.test.ts",
  "test/wire/**/*.test.ts",
];

export default defineConfig({
  test: {
    // @langchain/langgraph-checkpoint-validation registers its suites through vitest globals.
    globals: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // @google/generative-ai (under ChatGoogleGenerativeAI) rethrows inside a detached promise when a
    // streamed response is cut, as a cancelled run does: an unhandled rejection of the library's own,
    // after the run has already ended with its AbortError. Only that exact error is let through.
    onUnhandledError: (error) => error.message !== "[GoogleGenerativeAI Error]: Error reading from the stream",
    projects: [
      { extends: true, test: { name: "unit", include: UNIT } },
      { extends: true, test: { name: "services", include: ["test/**/*.test.ts"], exclude: UNIT } },
    ],
  },
});
