// The docs' tables of patterns and providers are generated from the code, so the docs and the code cannot drift apart.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PATTERNS } from "../../../src/index.js";
import { pathOf, TABLES, tableIn } from "../../../scripts/docs-tables.js";

describe("the docs' tables", () => {
  for (const { name, path, render } of TABLES) {
    it(`${path}'s ${name} table is the one generated from the code (regenerate with npm run docs:tables)`, () => {
      expect(tableIn(readFileSync(pathOf(path), "utf8"), name)).toBe(render());
    });
  }

  it("names each pattern's unit, its export and its test file by its kind", async () => {
    for (const { kind } of Object.values(PATTERNS)) {
      const source = new URL(`../../../src/repair/patterns/${kind}.ts`, import.meta.url).href;
      const unit = (await import(source)) as Record<string, unknown>;
      const name = kind.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());
      expect(unit[name], `src/repair/patterns/${kind}.ts exports ${name}`).toMatchObject({ kind });
      expect(readFileSync(new URL(`../patterns/${kind}.test.ts`, import.meta.url), "utf8")).toContain("repairMessages");
    }
  });
});
