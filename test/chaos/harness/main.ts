/**
 * `npm run chaos -- [options]`: the seeded soak. Prints progress, then the report; exits 1 when one of the five
 * figures is not zero, with the command that replays each failing thread and the whole run.
 */
import { runChaos, KNOWN_UNHANDLED } from "./chaos.js";
import { parseOptions, type SoakOptions } from "./options.js";
import { report } from "./report.js";
import { writeSummary } from "./summary.js";

let options: SoakOptions;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const log = options.verbose ? (line: string) => console.error(line) : () => {};
log(`chaos: seed ${options.seed} (replay it with --seed ${options.seed})`);
if (typeof (globalThis as { gc?: unknown }).gc !== "function") {
  log("chaos: run with node --expose-gc (npm run chaos does) for a heap measured after a full GC");
}

const unhandled: string[] = [];
const result = await runChaos(options, log, (error) => {
  const message = (error as Error)?.message ?? String(error);
  if (KNOWN_UNHANDLED[message] === undefined) unhandled.push(message);
});
console.log(report(result));
if (unhandled.length > 0)
  console.log(`\nUnhandled errors (${unhandled.length}):\n${[...new Set(unhandled)].join("\n")}`);
if (options.writeSummary) {
  writeSummary(result);
  console.log("\nWrote docs/reliability.md and docs/images/reliability.svg.");
}
process.exit(result.metrics.failed || unhandled.length > 0 ? 1 : 0);
