/**
 * The LangGraph.js version sets the compatibility matrix installs: the oldest the package supports and the
 * newest patch of every `@langchain/langgraph` minor since, each with a `@langchain/core`,
 * `@langchain/langgraph-checkpoint`, `langchain` and `@langchain/langgraph-checkpoint-postgres` that npm
 * resolves with it, one copy of core. Between them they hold the oldest and the newest of each peer's line.
 * The README's compatibility table is these sets, measured.
 */
export interface VersionSet {
  langgraph: string;
  checkpoint: string;
  core: string;
  langchain: string;
  postgres: string;
}

export const VERSION_SETS: readonly VersionSet[] = [
  // The floor: every peer at its oldest 1.x (there is no langchain 1.0.0; core 1.0.0 does not resolve with it).
  { langgraph: "1.0.0", checkpoint: "1.0.0", core: "1.0.1", langchain: "1.0.1", postgres: "1.0.0" },
  { langgraph: "1.0.15", checkpoint: "1.0.1", core: "1.1.15", langchain: "1.2.10", postgres: "1.0.1" },
  { langgraph: "1.1.5", checkpoint: "1.1.6", core: "1.1.48", langchain: "1.2.38", postgres: "1.0.5" },
  { langgraph: "1.2.9", checkpoint: "1.0.4", core: "1.1.44", langchain: "1.3.3", postgres: "1.0.4" },
  { langgraph: "1.3.7", checkpoint: "1.2.2", core: "1.1.48", langchain: "1.4.4", postgres: "1.0.5" },
  { langgraph: "1.4.18", checkpoint: "1.2.2", core: "1.2.18", langchain: "1.5.14", postgres: "1.0.5" },
  { langgraph: "1.5.3", checkpoint: "1.2.2", core: "1.3.5", langchain: "1.5.14", postgres: "1.0.5" },
  { langgraph: "1.7.3", checkpoint: "1.2.2", core: "1.4.0", langchain: "1.5.14", postgres: "1.0.5" },
];

/** The name of a set's app and of its row in the matrix. */
export const setName = (set: VersionSet) => `langgraph-${set.langgraph}`;

/** `@langchain/langgraph-checkpoint-validation` 1.1.1 peers checkpoint ^1.1.4 and core ^1.1.44. */
export const runsConformance = (set: VersionSet) => atLeast(set.checkpoint, "1.1.4") && atLeast(set.core, "1.1.44");

function atLeast(version: string, floor: string): boolean {
  const [a, b] = [version, floor].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if (a![i] !== b![i]) return a![i]! > b![i]!;
  return true;
}
