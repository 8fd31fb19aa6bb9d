/** Global setup of the `server-line` test project: installs the other Agent Server line (see server-lines.ts). */
import { run, succeeded } from "../compat/apps.js";
import { installOtherLine } from "./server-lines.js";

export default async function setup(): Promise<void> {
  await installOtherLine(async (dir) => {
    // Without peers: LangGraph, its checkpoint package and core must resolve to the repository's single copies
    // (the folder sits inside the repository), as they would in an app that has them.
    const args = ["install", "--legacy-peer-deps", "--no-audit", "--no-fund", "--loglevel=error"];
    succeeded(`npm install in ${dir}`, await run("npm", args, { cwd: dir }));
  });
}
