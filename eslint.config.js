// Lint rules for correctness only; layout is Prettier's job.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "coverage/", "node_modules/", "benchmarks/results/", "scratch/", ".server-lines/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Imports that are only types must say so, so the CJS and ESM builds load nothing extra.
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Plain Node scripts of the build.
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
  {
    files: ["test/**", "benchmarks/**", "examples/**"],
    rules: {
      // Tests and examples poke at loosely typed state and stream chunks.
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
);
