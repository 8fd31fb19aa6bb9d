import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // @langchain/langgraph-checkpoint-validation registers its suites through vitest globals.
    globals: true,
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
