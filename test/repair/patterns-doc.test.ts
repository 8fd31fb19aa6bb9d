// The README's pattern table is PATTERNS, so the docs and the code cannot drift apart.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PATTERNS } from "../../src/index.js";
import { README, patternTable, tableIn } from "../../scripts/pattern-table.js";

describe("the README's pattern table", () => {
  it("is the one generated from PATTERNS (regenerate with npm run docs:patterns)", () => {
    expect(tableIn(readFileSync(README, "utf8"))).toBe(patternTable());
  });

  it("has one row per pattern, each with a test file named by its code", () => {
    for (const code of Object.keys(PATTERNS))
      expect(readFileSync(new URL(`../patterns/${code}.test.ts`, import.meta.url), "utf8")).toContain("repairMessages");
  });
});
