import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  // Peer dependencies stay external so the app's single copy of LangChain is used.
  external: [/^@langchain\//],
});
