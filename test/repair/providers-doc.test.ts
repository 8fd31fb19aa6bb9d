// The README's provider table and docs/providers.md's are PROVIDER_RULES, with each row's sources as its comment in
// the code and each model family's as its `source`, so the docs and the code cannot drift apart.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROVIDER_RULE_NAMES } from "../../src/repair/provider-rules.js";
import { PROVIDERS_DOC, README, providersDocTable, readmeTable, tableIn } from "../../scripts/provider-table.js";

describe("the provider tables", () => {
  it("are the ones generated from the table in the code (regenerate with npm run docs:providers)", () => {
    expect(tableIn(readFileSync(README, "utf8"))).toBe(readmeTable());
    expect(tableIn(readFileSync(PROVIDERS_DOC, "utf8"))).toBe(providersDocTable());
  });

  it("list every provider value, each with the sources of its rules", () => {
    const doc = providersDocTable();
    for (const provider of PROVIDER_RULE_NAMES) expect(readmeTable()).toContain(`\`"${provider}"\``);
    for (const row of doc.split("\n").slice(2)) expect(row.split(" | ").at(-1)!.length).toBeGreaterThan(40);
  });
});
