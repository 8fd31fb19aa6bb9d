/**
 * npm run bench:engine -- --against <another build's dist/esm/index.js> [--quick]
 *
 * What a change to the engine does to its throughput: `repairMessages` of this checkout's build (`npm run build`
 * first) against another build of the package (a checkout of the commit before the change, built), on the same
 * 1,000-message histories, clean and broken, default and strictest rules, in interleaved pairs. Prints the median
 * ratio (this build / the other) and its interquartile range per history: a change keeps throughput when every
 * ratio stays at or under 1.05.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { history, type HistoryState } from "./histories.js";
import { compare } from "./stats.js";

const at = process.argv.indexOf("--against");
const against = at === -1 ? undefined : process.argv[at + 1];
if (against === undefined) {
  console.error("Usage: npm run bench:engine -- --against <another build's dist/esm/index.js>");
  process.exit(2);
}
const quick = process.argv.includes("--quick");
type Engine = typeof import("../src/index.js").repairMessages;
const load = async (path: string) =>
  ((await import(pathToFileURL(resolve(path)).href)) as { repairMessages: Engine }).repairMessages;
const current = await load("dist/esm/index.js");
const other = await load(against);

const STATES: readonly HistoryState[] = ["clean", "broken-tail", "broken-mid", "broken-every-round"];
const PROVIDERS = [undefined, "strictest"] as const;
const ROUNDS = 50;

console.log("| history | rules | ratio, this build / the other | interquartile range |");
console.log("|---|---|---:|---|");
for (const state of STATES) {
  for (const provider of PROVIDERS) {
    const lists = Array.from({ length: 10 }, () => history(1000, state));
    const run = (repair: Engine) => async () => {
      for (let round = 0; round < ROUNDS; round++) for (const list of lists) repair(list, { provider });
    };
    for (let i = 0; i < 5; i++) {
      await run(other)();
      await run(current)();
    }
    const { ratio, spread } = await compare(run(other), run(current), quick ? 15 : 41);
    const range = `${spread[0].toFixed(3)}–${spread[1].toFixed(3)}`;
    console.log(`| ${state} | ${provider ?? "default"} | ${ratio.toFixed(3)} | ${range} |`);
  }
}
