/**
 * The tables the docs take from the code: the README's short pattern and provider tables, every pattern in full in
 * docs/repairs.md, and every provider's rules with their sources in docs/providers.md. `npm run docs:tables`
 * rewrites each between its markers; test/unit/repair/docs-tables.test.ts fails when a copy is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PATTERNS, type PatternId } from "../src/index.js";
import { PROVIDERS, type ProviderEntry } from "../src/repair/rules/provider-patterns.js";

const file = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const codes = Object.keys(PATTERNS) as PatternId[];
const providers = Object.entries(PROVIDERS as Readonly<Record<string, ProviderEntry>>);
const list = (patterns: readonly string[]) => (patterns.length === 0 ? "none" : patterns.join(", "));
/** The provider names of each set of rules, in the table's order. */
const byRules = new Map<string, string[]>();
for (const [name, entry] of providers) {
  const rules = list(entry.patterns);
  byRules.set(rules, [...(byRules.get(rules) ?? []), name]);
}
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join(
    "\n",
  );

/** One generated table: where it goes, and what it holds. */
export interface DocsTable {
  name: string;
  path: string;
  render(): string;
}

export const TABLES: readonly DocsTable[] = [
  {
    name: "patterns",
    path: "README.md",
    render: () =>
      table(
        ["code", "kind", "applies", "shape"],
        codes.map((code) => {
          const { kind, applies, summary } = PATTERNS[code];
          return [code, `[\`${kind}\`](docs/repairs.md#${kind})`, applies.join(", "), summary];
        }),
      ),
  },
  {
    name: "providers",
    path: "README.md",
    render: () =>
      table(
        ["`provider`", "repaired too"],
        [
          ["not set", "none: what every provider rejects, and what a broken run left"],
          // Providers with the same rules share a row, so the README's table stays short.
          ...[...byRules].map(([rules, names]) => [names.map((name) => `\`"${name}"\``).join(", "), rules]),
          ['`"strictest"`', "every provider's, for an app that switches models"],
        ],
      ),
  },
  {
    name: "patterns-full",
    path: "docs/repairs.md",
    render: () =>
      table(
        ["code", "kind", "applies", "shape", "repair"],
        codes.map((code) => {
          const { kind, applies, shape, repair } = PATTERNS[code];
          // The kind names the pattern's unit, test and anchor, as a rule's name does in a linter.
          return [
            `<a id="${kind}"></a>${code}`,
            `[\`${kind}\`](../src/repair/patterns/${kind}.ts)`,
            applies.join(", "),
            shape,
            repair,
          ];
        }),
      ),
  },
  {
    name: "providers",
    path: "docs/providers.md",
    render: () =>
      table(
        ["`provider`", "repaired too", "lifted for", "why (the provider's rules and error texts)"],
        providers.map(([name, entry]) => [
          `\`"${name}"\``,
          list(entry.patterns),
          (entry.families ?? []).map((f) => `${f.lifts.join(", ")} for ${f.name} (${f.source})`).join("; "),
          entry.source,
        ]),
      ),
  },
];

const markers = (name: string) => [
  `<!-- ${name}:start (generated from the code: npm run docs:tables) -->`,
  `<!-- ${name}:end -->`,
];

/** The part of `text` between the markers of `name`, or undefined when they are missing. */
export function tableIn(text: string, name: string): string | undefined {
  const [start, end] = markers(name);
  const from = text.indexOf(start!);
  const to = text.indexOf(end!);
  if (from < 0 || to < from) return undefined;
  return text.slice(from + start!.length, to).trim();
}

/** `text` with the table of `name` written between its markers. */
function withTable(text: string, { name, path, render }: DocsTable): string {
  const [start, end] = markers(name);
  if (tableIn(text, name) === undefined) throw new Error(`${path} has no ${start} … ${end} block to fill.`);
  const from = text.indexOf(start!) + start!.length;
  return `${text.slice(0, from)}\n${render()}\n${text.slice(text.indexOf(end!))}`;
}

export const pathOf = file;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const path of new Set(TABLES.map((t) => t.path))) {
    const text = TABLES.filter((t) => t.path === path).reduce(withTable, readFileSync(file(path), "utf8"));
    writeFileSync(file(path), text);
  }
}
