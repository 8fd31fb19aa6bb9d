// After the two tsc passes: mark dist/cjs as CommonJS (the package is "type": "module"), make the CLI
// executable (tsc does not; npm only does it when installing a dependency), and write a types stub at the
// root for each subpath, so that TypeScript's `moduleResolution: "node"` (node10), which ignores "exports",
// finds `langgraph-checkpoint-sanitizer/redis` and the others, as the LangChain packages do.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";

writeFileSync("dist/cjs/package.json", '{"type":"commonjs"}\n');
chmodSync("dist/esm/cli/main.js", 0o755);

const { exports } = JSON.parse(readFileSync("package.json", "utf8"));
for (const [subpath, conditions] of Object.entries(exports)) {
  if (subpath === "." || typeof conditions !== "object") continue;
  const types = conditions.require.types.replace(/\.d\.ts$/, ".js");
  writeFileSync(`${subpath.slice(2)}.d.ts`, `export * from "${types}";\n`);
}
