/** Reading checkpoint tuples from two savers and holding them to each other. */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, CheckpointListOptions, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { isDeepStrictEqual, inspect } from "node:util";
import { expect } from "vitest";

/** Every tuple `saver.list` yields, in order. */
export async function listed(saver: BaseCheckpointSaver, config: RunnableConfig, options?: CheckpointListOptions) {
  const tuples: CheckpointTuple[] = [];
  for await (const tuple of saver.list(config, options)) tuples.push(tuple);
  return tuples;
}

/**
 * Fails unless `actual` deep-equals `expected` strictly (same classes, same fields, same order), printing both
 * under `names`: what one saver's read is held to against another's.
 */
export function expectSame(actual: unknown, expected: unknown, [actualName, expectedName]: readonly [string, string]) {
  if (!isDeepStrictEqual(actual, expected))
    expect.fail(`${actualName} ${inspect(actual, { depth: 9 })}\n${expectedName} ${inspect(expected, { depth: 9 })}`);
}
