// The docs' tables of patterns and providers are generated from the code, so the docs and the code cannot drift apart.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PATTERNS } from "../../src/index.js";
import { pathOf, TABLES, tableIn } from "../../scripts/docs-tables.js";

describe("the docs' tables", () => {
  for (const { name, path, render } of TABLES) {
    it(`${path}'s ${name} table is the one generated from the code (regenerate with npm run docs:tables)`, () => {
      expect(tableIn(readFileSync(pathOf(path), "utf8"), name)).toBe(render());
    });
  }

  it("has one row per pattern, each with a test file named by its code", () => {
    for (const code of Object.keys(PATTERNS))
      expect(readFileSync(new URL(`../patterns/${code}.test.ts`, import.meta.url), "utf8")).toContain("repairMessages");
  });
});
