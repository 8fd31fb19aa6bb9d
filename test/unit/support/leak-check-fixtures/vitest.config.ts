// The fixtures' own vitest run, started by ../leak-check.test.ts: the repository's leak check as its only setup file,
// with the settings of vitest.config.ts it interacts with (vitest's globals, files sharing a worker).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../../../..", import.meta.url)),
    include: ["test/unit/support/leak-check-fixtures/*.fixture.ts"],
    setupFiles: ["test/support/leak-check.ts"],
    globals: true,
    isolate: false,
    maxWorkers: 1,
  },
});
