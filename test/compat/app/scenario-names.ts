/** The compatibility scenarios, by name: what scenarios.ts runs in each app and the matrix reports. */
export const SCENARIO_NAMES = [
  "cancelled turn, then the next message",
  "interrupt() and Command({ resume })",
  "subgraph: cancelled inside, then the next message",
  "subgraph: Send to nested subgraphs, an edit of a subgraph checkpoint, and resume",
  "time travel: replay and fork from an earlier checkpoint",
  "static breakpoint approved with null input",
  "failed tool retried with null input",
  "createAgent: cancelled turn, then the next message; the middleware",
] as const;

export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** The backends each app runs the scenarios on: the package's own Redis and Postgres savers next to MemorySaver. */
export const BACKENDS = ["memory", "redis", "postgres"] as const;
