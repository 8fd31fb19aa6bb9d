// Packs the built package as npm would publish it and checks the tarball: publint (package.json against the
// files), and arethetypeswrong (every entry point's types resolve under node10, node16 and bundler, from ESM
// and CommonJS). Part of `npm run lint`; needs dist/ (`npm run build`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

if (!existsSync("dist/esm/index.js")) {
  console.error("check-package: dist/ is missing; run `npm run build` first.");
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), "sanitizer-package-"));
const run = (command, args) => spawnSync(command, args, { stdio: "inherit" }).status ?? 1;
try {
  // dist/ is built already: pack it as it is.
  let status = run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir]);
  const tarball = join(dir, readdirSync(dir).find((file) => file.endsWith(".tgz")) ?? "missing.tgz");
  if (status === 0) status = run("npx", ["publint", "run", tarball, "--strict"]);
  if (status === 0) status = run("npx", ["attw", tarball, "--no-summary"]);
  process.exitCode = status;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
