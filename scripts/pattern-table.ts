/**
 * The README's table of patterns, generated from PATTERNS (`npm run docs:patterns` rewrites it between
 * its markers; test/repair/patterns-doc.test.ts fails when the README's copy is stale).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PATTERNS, type PatternId } from "../src/index.js";

export const START = "<!-- patterns:start (generated from src/repair/patterns.ts: npm run docs:patterns) -->";
export const END = "<!-- patterns:end -->";
export const README = fileURLToPath(new URL("../README.md", import.meta.url));

/** The Markdown table: one row per pattern, code and kind, where it applies, shape and repair, as PATTERNS has them. */
export function patternTable(): string {
  const rows = (Object.keys(PATTERNS) as PatternId[]).map((code) => {
    const { kind, shape, repair, applies } = PATTERNS[code];
    return `| ${code} | \`${kind}\` | ${applies.join(", ")} | ${shape} | ${repair} |`;
  });
  return ["| code | kind | applies | shape | repair |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** The part of `readme` between the markers, or undefined when they are missing. */
export function tableIn(readme: string): string | undefined {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(start + START.length, end).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readme = readFileSync(README, "utf8");
  if (tableIn(readme) === undefined) throw new Error(`README.md has no ${START} … ${END} block to fill.`);
  const start = readme.indexOf(START) + START.length;
  writeFileSync(README, `${readme.slice(0, start)}\n${patternTable()}\n${readme.slice(readme.indexOf(END))}`);
}
