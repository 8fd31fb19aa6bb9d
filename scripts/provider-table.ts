/**
 * The provider tables of the README and docs/providers.md, generated from PROVIDER_RULES, with each row's sources as
 * the comment above it in src/repair/provider-rules.ts and each model family's as its `source` (`npm run
 * docs:providers` rewrites them between their markers; test/repair/providers-doc.test.ts fails when a copy is stale).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PROVIDER_RULES, type ModelFamily, type ProviderName } from "../src/repair/provider-rules.js";

export const START = "<!-- providers:start (generated from src/repair/provider-rules.ts: npm run docs:providers) -->";
export const END = "<!-- providers:end -->";
export const README = fileURLToPath(new URL("../README.md", import.meta.url));
export const PROVIDERS_DOC = fileURLToPath(new URL("../docs/providers.md", import.meta.url));
const RULES_SOURCE = fileURLToPath(new URL("../src/repair/provider-rules.ts", import.meta.url));

const codes = (patterns: readonly string[]) => (patterns.length === 0 ? "none" : patterns.join(", "));
/** A model name pattern as a table cell shows it (a `|` would end the cell). */
const modelName = (name: RegExp) => `\`${name.source.replaceAll("|", "\\|")}\``;
const providers = () => Object.keys(PROVIDER_RULES) as ProviderName[];
const patternsOf = (provider: ProviderName): readonly string[] => PROVIDER_RULES[provider].patterns;
const families = (provider: ProviderName): readonly ModelFamily[] =>
  (PROVIDER_RULES[provider] as { families?: readonly ModelFamily[] }).families ?? [];
/** What a family lifts, as a cell shows it. */
const lifted = ({ models, lifts }: ModelFamily) => `not ${lifts.join(", ")} for models ${modelName(models)}`;

/** The comment above each row of the table in `source`: the rules' sources, as one line of text. */
export function sourcesOf(source: string, table: string): Map<string, string> {
  const body = source.slice(source.indexOf(`export const ${table} = `));
  const sources = new Map<string, string>();
  let comment: string[] = [];
  for (const line of body.slice(0, body.indexOf("\n} as const")).split("\n").slice(1)) {
    const text = line.trim();
    if (text.startsWith("//")) comment.push(text.replace(/^\/\/\s?/, ""));
    else if (/^"?[a-z-]+"?: /.test(text)) {
      sources.set(text.slice(0, text.indexOf(":")).replaceAll('"', ""), comment.join(" "));
      comment = [];
    }
  }
  return sources;
}

/** The README's table: each `provider` value and what it repairs beyond the default. */
export function readmeTable(): string {
  const rows = providers().map((provider) => {
    const models = families(provider).map((family) => `; ${lifted(family)}`);
    return `| \`"${provider}"\` | ${codes(patternsOf(provider))}${models.join("")} |`;
  });
  return [
    "| `provider` | repaired too |",
    "|---|---|",
    "| not set | none: what every provider rejects, and what a broken run left |",
    ...rows,
    '| `"strictest"` | every provider\'s rules at once, for an app that switches models |',
  ].join("\n");
}

/** docs/providers.md's table: the same, with each row's sources. */
export function providersDocTable(): string {
  const sources = sourcesOf(readFileSync(RULES_SOURCE, "utf8"), "PROVIDER_RULES");
  const rows = providers().map((provider) => {
    const models = families(provider).map((family) => `${lifted(family)} (${family.source})`);
    return `| \`"${provider}"\` | ${codes(patternsOf(provider))} | ${models.join("; ") || "—"} | ${sources.get(provider)} |`;
  });
  return [
    "| `provider` | repaired too | by model name | the provider's rules, and their sources |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** The part of `text` between the markers, or undefined when they are missing. */
export function tableIn(text: string): string | undefined {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return text.slice(start + START.length, end).trim();
}

function rewrite(file: string, table: string): void {
  const text = readFileSync(file, "utf8");
  if (tableIn(text) === undefined) throw new Error(`${file} has no ${START} … ${END} block to fill.`);
  const start = text.indexOf(START) + START.length;
  writeFileSync(file, `${text.slice(0, start)}\n${table}\n${text.slice(text.indexOf(END))}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rewrite(README, readmeTable());
  rewrite(PROVIDERS_DOC, providersDocTable());
}
