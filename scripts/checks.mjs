// `npm run typecheck` and `npm run lint` at once, one per core (`npm test` runs this first): each one's output is
// printed whole when it ends, and the exit code is the first failure's.
import { spawn } from "node:child_process";

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => {
      process.stdout.write(`> npm run ${script}${code === 0 ? "" : ` (exit ${code})`}\n${output}`);
      resolve(code ?? 1);
    });
  });

const codes = await Promise.all(["typecheck", "lint"].map(run));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
