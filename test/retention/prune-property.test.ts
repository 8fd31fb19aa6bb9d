// A property over random histories made by real runs (turns, stops at every point, approvals, Regenerate forks, a
// list or a snapshotting delta channel) and random keep settings: after a prune, the thread reads as before, keeps
// what was promised, and its next steps match an unpruned copy's. Many runs on SQLite, a few on Postgres and Redis.
import { HumanMessage } from "@langchain/core/messages";
import { Command, interrupt, type BaseCheckpointSaver } from "@langchain/langgraph";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer, prune } from "../../src/index.js";
import { canonicalRun, unlinked } from "../support/comparisons/pruned-reads.js";
import { reactGraph, type MessagesField } from "../support/graphs/react-graph.js";
import { toolCallIds } from "../support/graphs/strict-chat-model.js";
import {
  FIRST_QUESTION,
  agentModel,
  cancelFirstTurn,
  cancelledAfterInput,
  nextTurn,
  type StopPoint,
} from "../support/graphs/scenarios.js";
import {
  postgresFactory,
  redisFactory,
  saverFactories,
  sqliteFactory,
  type SaverFactory,
} from "../support/savers/savers.js";

// A thread of several tool turns: each reply's calls get ids of their own, as most providers give.
beforeAll(() => void (toolCallIds.unique = true));
afterAll(() => void (toolCallIds.unique = false));

const approval = { search: () => String(interrupt("approve?")), lookup: () => "ok" };

type Step =
  | { kind: "turn"; tools: boolean }
  | { kind: "stop"; at: StopPoint | "after-input" }
  | { kind: "approval"; resumed: boolean }
  | { kind: "regenerate"; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("turn" as const), tools: fc.boolean() }),
  fc.record({
    kind: fc.constant("stop" as const),
    at: fc.constantFrom<StopPoint | "after-input">(
      "during-llm",
      "during-tools",
      "after-one-of-two-parallel-tools",
      "after-tools",
      "after-input",
    ),
  }),
  fc.record({ kind: fc.constant("approval" as const), resumed: fc.constant(true) }),
  fc.record({ kind: fc.constant("regenerate" as const), pick: fc.nat() }),
);

/** Steps, the last of which may leave the thread paused at an approval. */
const history = fc.record({
  field: fc.constantFrom<MessagesField>("MessagesValue", "MessagesDeltaValue(3)"),
  steps: fc.array(step, { minLength: 1, maxLength: 4 }),
  endsPaused: fc.boolean(),
});
const keep = fc.record({
  keepLast: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  olderThan: fc.option(fc.constantFrom(0, 3_600_000), { nil: undefined }),
});

const config = (thread: string) => ({ configurable: { thread_id: thread } });
const approvalGraph = (saver: BaseCheckpointSaver, field: MessagesField, tools: typeof approval = approval) =>
  reactGraph({ model: agentModel("anthropic"), tools, field }).compile(saver);
const plainGraph = (saver: BaseCheckpointSaver, field: MessagesField) =>
  approvalGraph(saver, field, { search: () => "Paris: 15°C", lookup: () => "ok" });

async function run(
  saver: BaseCheckpointSaver,
  thread: string,
  field: MessagesField,
  { steps, endsPaused }: { steps: Step[]; endsPaused: boolean },
) {
  const where = { field };
  for (const s of steps) {
    if (s.kind === "turn") await nextTurn(saver, "anthropic", thread, s.tools ? FIRST_QUESTION : "Hello", where);
    if (s.kind === "stop" && s.at === "after-input") {
      const raw = (saver as SanitizingCheckpointer).inner;
      await cancelledAfterInput(raw, (inner) => new SanitizingCheckpointer(inner), thread, "Are you there?", field);
    } else if (s.kind === "stop") await cancelFirstTurn(saver, s.at as StopPoint, thread, where);
    if (s.kind === "approval") {
      await approvalGraph(saver, field).invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config(thread));
      await approvalGraph(saver, field).invoke(new Command({ resume: "yes" }), config(thread));
    }
    if (s.kind === "regenerate") {
      const graph = plainGraph(saver, field);
      const points = [];
      for await (const snapshot of graph.getStateHistory(config(thread)))
        if (snapshot.next.length === 1 && snapshot.next[0] === "agent") points.push(snapshot.config);
      if (points.length > 0) await graph.invoke(null, points[s.pick % points.length]);
    }
  }
  if (endsPaused)
    await approvalGraph(saver, field).invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config(thread));
}

async function reads(saver: BaseCheckpointSaver, thread: string, field: MessagesField, promised: string[]) {
  const graph = approvalGraph(saver, field);
  const state = await graph.getState(config(thread), { subgraphs: true });
  const travelled = [];
  for (const id of promised)
    travelled.push(await graph.getState({ configurable: { thread_id: thread, checkpoint_id: id } }));
  return unlinked({ values: state.values, next: state.next, tasks: state.tasks, travelled });
}

/** A resume if paused, then a new message: what the app and the model saw, random ids numbered. */
async function nextSteps(saver: BaseCheckpointSaver, thread: string, field: MessagesField, paused: boolean) {
  const resumed = paused
    ? await approvalGraph(saver, field).invoke(new Command({ resume: "yes" }), config(thread))
    : null;
  const { messages, model } = await nextTurn(saver, "anthropic", thread, "And tomorrow?", { field });
  return canonicalRun({ resumed, messages, requests: model.seen, rejected: model.rejections.length });
}

/** What the next steps start from: the newest state's values and next, random ids numbered. */
async function latest(saver: BaseCheckpointSaver, thread: string, field: MessagesField) {
  const { values, next } = await approvalGraph(saver, field).getState(config(thread));
  return canonicalRun({ values, next });
}

async function rootIds(saver: BaseCheckpointSaver, thread: string): Promise<string[]> {
  const ids = [];
  for await (const tuple of saver.list({ configurable: { thread_id: thread, checkpoint_ns: "" } }))
    ids.push(tuple.checkpoint.id);
  return ids.sort().reverse();
}

const available = new Set(saverFactories.map((f) => f.name));
/**
 * The official PostgresSaver's forks read the original timeline's values (docs/redis.md#forks), with or without
 * prune, and now and then reject the next turn for it: no Regenerate there.
 */
const FORKS_SAFE = (factory: SaverFactory) => factory !== postgresFactory;

const BACKENDS: [SaverFactory, number][] = (
  [
    [sqliteFactory, Number(process.env.FC_RUNS ?? 12)],
    [postgresFactory, 6],
    [redisFactory, 6],
  ] as [SaverFactory, number][]
).filter(([f]) => available.has(f.name));

describe.each(BACKENDS.map(([f, runs]) => [f.name, f, runs] as const))(
  "prune on random histories, %s",
  (_, factory, numRuns) => {
    const opened: BaseCheckpointSaver[] = [];
    afterAll(() => Promise.all(opened.map((s) => factory.destroy(s))));
    let threads = 0;

    it("reads the same, keeps the newest it promised, and goes on as an unpruned copy", async () => {
      const raw = await factory.create();
      opened.push(raw);
      const saver = new SanitizingCheckpointer(raw);
      await fc.assert(
        fc.asyncProperty(history, keep, async (made, { keepLast, olderThan }) => {
          fc.pre(keepLast !== undefined || olderThan !== undefined);
          const thread = `t${threads++}`;
          if (!FORKS_SAFE(factory)) made = { ...made, steps: made.steps.filter((s) => s.kind !== "regenerate") };
          fc.pre(made.steps.length > 0);
          await run(saver, thread, made.field, made);
          await run(saver, `${thread} (copy)`, made.field, made);
          const before = await rootIds(raw, thread);
          const promised = before.slice(0, keepLast ?? 1);
          const read = await reads(saver, thread, made.field, promised);
          // Stops land by timing: under load a copy can stop elsewhere than its twin, which this case cannot judge.
          const [mine, twin] = await Promise.all([thread, `${thread} (copy)`].map((t) => latest(saver, t, made.field)));
          fc.pre(JSON.stringify(mine) === JSON.stringify(twin));

          await prune(saver, { keepLast, olderThan, threadId: thread });
          const after = await rootIds(raw, thread);
          expect(after).toEqual(expect.arrayContaining(promised));
          if (olderThan === 0 && keepLast === undefined) expect(after[0]).toBe(before[0]);
          expect(await reads(saver, thread, made.field, promised)).toEqual(read);
          const next = await nextSteps(saver, thread, made.field, made.endsPaused);
          expect(next).toEqual(await nextSteps(saver, `${thread} (copy)`, made.field, made.endsPaused));
          expect((next as { rejected: number }).rejected).toBe(0);
        }),
        { numRuns },
      );
    }, 180_000);
  },
);
