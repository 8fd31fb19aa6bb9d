/**
 * One word for each idea: every word of an exported name in src/ is either a plain word (the list below) or one the
 * glossary (CONTRIBUTING.md, "Words") defines. A new coined word fails here until the glossary says what it means,
 * or the list below takes it as plain.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

/** Words used in their everyday sense, or a technology's own (json, redis, otel). */
const PLAIN = `action activity add among ancestor and answer answered api argument as assert at atomically attribute base
batch batched be bit blob block boundary break breakpoint byte by call char check checkpoint checkpointer choice chunk
class cli close closing cluster column command common compare config connect connection consecutive content context
count counter create database decode define duplicate duration emit empty encode end entry error event every exec exit
explain family field filter find finding first for foreign formed found frame gemini claude get goe graph group has
hash head hidden histogram history hold hosted human id in inserted instrument interrupt invalid io is item json kept
key last latest layout leading length like line list listing load lone made main marked max may message meter method
metric mid middleware misplaced missing mode model m name naming need nested next node not number observable of on one
only open operation option optional or order orphan out output outside page part partly pass path paused pending plan
plus point pool position postgres prefix prepare preset printable progress provider put query range read reasoning
recording redact redis ref relink remove repair reply reset resilience resilient resolve resolved result revive reviver
rewrite role row run runnable sanitize sanitizer sanitizing saver scan serializer server set setting shard shared
shell signal signature signed skip snapshot sort span sql sqlite start state stopped store stored stream summary
supported system table take tally task telemetry text thinking thread through time timeout to tool total trace tracer
tracker trigger tuple unanswered unavailable unclosed unfinished unkept unknown unpaired unsigned usage used user valid
value view visit well with without write echoed parent report reporter parse classes replayed request cursor
namespace ahead pruned`;

const singular = (word: string) => word.toLowerCase().replace(/ies$/, "y").replace(/s$/, "");

const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_\-0-9]+/)
    .filter(Boolean)
    .map(singular);

function glossaryWords(): Set<string> {
  const contributing = readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8");
  const section = contributing.slice(
    contributing.indexOf("## Words"),
    contributing.indexOf("\n## ", contributing.indexOf("## Words") + 1),
  );
  const terms = [...section.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);
  return new Set(terms.flatMap((term) => term.split(/[\s/-]+/).map(singular)));
}

function exportedNames(dir: string): { name: string; file: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return exportedNames(path);
    if (!entry.name.endsWith(".ts")) return [];
    const source = readFileSync(path, "utf8");
    const declared = source.matchAll(
      /^export (?:declare )?(?:abstract )?(?:async )?(?:const|let|function\*?|class|type|interface|enum) ([A-Za-z_$][\w$]*)/gm,
    );
    return [...declared].map((m) => ({ name: m[1]!, file: path.slice(ROOT.length + 1) }));
  });
}

describe("the glossary", () => {
  it("defines every coined word of an exported name in src/", () => {
    const known = new Set([...PLAIN.split(/\s+/).map(singular), ...glossaryWords()]);
    const unknown = exportedNames(join(ROOT, "src")).flatMap(({ name, file }) =>
      wordsOf(name)
        .filter((word) => !known.has(word))
        .map((word) => `${word} (${name}, ${file})`),
    );
    expect(unknown, "define these in CONTRIBUTING.md's Words, or add them to PLAIN if they mean what they say").toEqual(
      [],
    );
  });

  it("fails on a coined word it does not know", () => {
    const known = new Set([...PLAIN.split(/\s+/).map(singular), ...glossaryWords()]);
    expect(wordsOf("reconcileFrobnicatedTail").filter((word) => !known.has(word))).toEqual([
      "reconcile",
      "frobnicated",
    ]);
  });
});
