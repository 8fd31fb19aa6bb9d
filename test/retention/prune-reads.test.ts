// Retention never breaks a thread: on every backend, threads made by real runs (finished, stopped mid-tool and
// mid-model, a stranded result, paused at an interrupt, a delta channel, subgraphs, a Regenerate's fork) read the
// same after a prune as before, resume and take their next turn as an unpruned copy does, and keep exactly the
// checkpoints retention promises.
import { HumanMessage } from "@langchain/core/messages";
import { Command, interrupt, type BaseCheckpointSaver } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { SanitizingCheckpointer, prune } from "../../src/index.js";
import { canonicalRun, unlinked } from "../support/comparisons/pruned-reads.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import {
  FIRST_QUESTION,
  agentModel,
  cancelFirstTurn,
  cancelledAfterInput,
  mountAgent,
  nextTurn,
  type Mount,
  type Placement,
} from "../support/graphs/scenarios.js";
import { postgresFactory, redisFactory, saverFactories, sqliteFactory } from "../support/savers/savers.js";

const approvalTools = { search: () => String(interrupt("approve?")), lookup: () => "ok" };
const plainTools = { search: () => "Paris: 15°C", lookup: () => "ok" };

/** The graph a thread was run with: its reads, its resume and its next turn take the same one. */
const graphOf = (saver: BaseCheckpointSaver, { mount = "root", field }: Placement, tools = approvalTools) =>
  mountAgent(reactGraph({ model: agentModel("anthropic"), tools, field }).builder, saver, { mount, field });

interface Scenario {
  placement: Placement;
  seed(saver: BaseCheckpointSaver, thread: string): Promise<unknown>;
  /** It waits at an interrupt() that `Command({ resume })` answers, or (`null`) at a breakpoint `invoke(null)` passes. */
  paused?: { resume: string } | null;
  /** The app's static breakpoints, which its sanitizer is told of. */
  interruptAfter?: "agent"[];
  /** The graph's tools. @default approvalTools */
  tools?: typeof plainTools;
  /** What keepLast 1 keeps, from the namespaces' checkpoints before, newest first; `undefined`: some, not all. */
  keeps(before: Map<string, string[]>): string[] | undefined;
}

const newest =
  (ns = "") =>
  (before: Map<string, string[]>) => [`${ns}/${before.get(ns)![0]}`];
const newestTwo =
  (ns = "") =>
  (before: Map<string, string[]>) =>
    before
      .get(ns)!
      .slice(0, 2)
      .map((id) => `${ns}/${id}`);
const every = (before: Map<string, string[]>) => [...before].flatMap(([ns, ids]) => ids.map((id) => `${ns}/${id}`));
const delta: Placement = { field: "MessagesDeltaValue" };
const at = (mount: Mount): Placement => ({ mount });

async function regenerate(saver: BaseCheckpointSaver, thread: string) {
  await nextTurn(saver, "anthropic", thread);
  await nextTurn(saver, "anthropic", thread, "And the day after?");
  const graph = graphOf(saver, {});
  const config = { configurable: { thread_id: thread } };
  for await (const snapshot of graph.getStateHistory(config))
    if (snapshot.next.includes("agent")) return graph.invoke(null, snapshot.config);
}

const SCENARIOS: Record<string, Scenario> = {
  finished: { placement: {}, seed: (s, t) => nextTurn(s, "anthropic", t), keeps: newest() },
  "stopped mid-tool": { placement: {}, seed: (s, t) => cancelFirstTurn(s, "during-tools", t), keeps: newestTwo() },
  "stopped mid-model": { placement: {}, seed: (s, t) => cancelFirstTurn(s, "during-llm", t), keeps: newestTwo() },
  "a stranded result, then a turn stopped after its input": {
    placement: {},
    seed: async (s, t) => {
      await cancelFirstTurn(s, "after-one-of-two-parallel-tools", t);
      await cancelledAfterInput((s as SanitizingCheckpointer).inner, (inner) => new SanitizingCheckpointer(inner), t);
    },
    keeps: newestTwo(),
  },
  "paused at an interrupt": {
    placement: {},
    paused: { resume: "yes" },
    seed: (s, t) =>
      graphOf(s, {}).invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, { configurable: { thread_id: t } }),
    keeps: newestTwo(),
  },
  "paused at a static breakpoint after the model": {
    placement: {},
    paused: null,
    interruptAfter: ["agent"],
    tools: plainTools,
    seed: (s, t) =>
      reactGraph({ model: agentModel("anthropic"), tools: plainTools })
        .builder.compile({ checkpointer: s, interruptAfter: ["agent"] })
        .invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, { configurable: { thread_id: t } }),
    keeps: newestTwo(),
  },
  "a delta channel, its last turn stopped": {
    placement: delta,
    seed: async (s, t) => {
      await nextTurn(s, "anthropic", t, "Hello", delta);
      await cancelFirstTurn(s, "during-tools", t, delta);
    },
    keeps: every,
  },
  "a delta channel that snapshots every 3 updates, its last two turns stopped": {
    placement: { field: "MessagesDeltaValue(3)" },
    seed: async (s, t) => {
      const field = "MessagesDeltaValue(3)";
      await nextTurn(s, "anthropic", t, "Hello", { field });
      await cancelFirstTurn(s, "during-tools", t, { field });
      await cancelFirstTurn(s, "during-tools", t, { field });
    },
    keeps: () => undefined,
  },
  "a subgraph stopped, then a finished turn": {
    placement: at("subgraph"),
    seed: async (s, t) => {
      await cancelFirstTurn(s, "during-tools", t, "subgraph");
      await nextTurn(s, "anthropic", t, undefined, "subgraph");
    },
    keeps: newest(),
  },
  "paused at an interrupt in a subgraph": {
    placement: at("subgraph"),
    paused: { resume: "yes" },
    seed: (s, t) =>
      graphOf(s, at("subgraph")).invoke(
        { messages: [new HumanMessage(FIRST_QUESTION)] },
        { configurable: { thread_id: t } },
      ),
    keeps: (before) => [
      ...newestTwo()(before),
      ...[...before.keys()].filter((ns) => ns !== "").flatMap((ns) => newestTwo(ns)(before)),
    ],
  },
  "a checkpointer: true subgraph, two turns": {
    placement: at("persistent-subgraph"),
    seed: async (s, t) => {
      await nextTurn(s, "anthropic", t, "Hello", "persistent-subgraph");
      await nextTurn(s, "anthropic", t, undefined, "persistent-subgraph");
    },
    keeps: (before) => [...newestTwo()(before), ...newest("assistant")(before)],
  },
  "forked by a Regenerate": { placement: {}, seed: regenerate, keeps: newest() },
};

/** Every stored checkpoint of `thread`, newest first, by namespace. */
async function stored(saver: BaseCheckpointSaver, thread: string): Promise<Map<string, string[]>> {
  const byNs = new Map<string, string[]>();
  for await (const tuple of saver.list({ configurable: { thread_id: thread } })) {
    const { checkpoint_ns = "", checkpoint_id } = tuple.config.configurable!;
    byNs.set(checkpoint_ns, [...(byNs.get(checkpoint_ns) ?? []), checkpoint_id]);
  }
  for (const ids of byNs.values()) ids.sort().reverse();
  return byNs;
}

/** The thread as its app reads it: getState with subgraphs, each namespace's newest, and time travel to `ids`. */
async function reads(saver: BaseCheckpointSaver, thread: string, placement: Placement, ids: string[]) {
  const graph = graphOf(saver, placement);
  const config = { configurable: { thread_id: thread } };
  const state = await graph.getState(config, { subgraphs: true });
  const tuples: Record<string, unknown> = {};
  for (const checkpoint_ns of (await stored(saver, thread)).keys())
    tuples[checkpoint_ns] = await saver.getTuple({ configurable: { thread_id: thread, checkpoint_ns } });
  const travelled: unknown[] = [];
  for (const checkpoint_id of ids)
    travelled.push(await graph.getState({ configurable: { thread_id: thread, checkpoint_id } }));
  return unlinked({ state: { values: state.values, next: state.next, tasks: state.tasks }, tuples, travelled }) as {
    state: unknown;
    tuples: Record<string, unknown>;
    travelled: unknown[];
  };
}

/** `read` narrowed to the namespaces `kept` and the first `travelled` time travels. */
const narrowed = (read: Awaited<ReturnType<typeof reads>>, kept: Iterable<string>, travelled: number) => ({
  state: read.state,
  tuples: Object.fromEntries([...kept].map((ns) => [ns, read.tuples[ns]])),
  travelled: read.travelled.slice(0, travelled),
});

const flat = (byNs: Map<string, string[]>) => [...byNs].flatMap(([ns, ids]) => ids.map((id) => `${ns}/${id}`));

/** The thread's next steps: a resume if paused, then a new message; what the app and the model saw. */
async function nextSteps(saver: BaseCheckpointSaver, thread: string, scenario: Scenario) {
  const config = { configurable: { thread_id: thread } };
  const resumed =
    scenario.paused === undefined
      ? null
      : await graphOf(saver, scenario.placement, scenario.tools).invoke(
          scenario.paused && new Command(scenario.paused),
          config,
        );
  const { messages, model } = await nextTurn(saver, "anthropic", thread, "And tomorrow?", scenario.placement);
  return canonicalRun({ resumed, messages, requests: model.seen, rejections: model.rejections.length });
}

/** The app's checkpointer: the sanitizer, told of the graph's breakpoints. */
const sanitizing = (raw: BaseCheckpointSaver, { interruptAfter }: Scenario) =>
  new SanitizingCheckpointer(raw, { interruptAfter });

const available = new Set(saverFactories.map((f) => f.name));
const FACTORIES = [sqliteFactory, postgresFactory, redisFactory].filter((f) => available.has(f.name));

describe.each(FACTORIES.map((f) => [f.name, f] as const))("prune on %s", (_, factory) => {
  const opened: BaseCheckpointSaver[] = [];
  afterAll(() => Promise.all(opened.map((saver) => factory.destroy(saver))));
  const store = (async () => {
    const raw = await factory.create();
    opened.push(raw);
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      await scenario.seed(sanitizing(raw, scenario), name);
      await scenario.seed(sanitizing(raw, scenario), `${name} (copy)`);
    }
    return raw;
  })();

  it.each(Object.entries(SCENARIOS))(
    "%s: reads the same after keepLast 3, then keepLast 1, keeps what was promised, and goes on as its copy",
    async (name, scenario) => {
      const raw = await store;
      const saver = sanitizing(raw, scenario);
      const before = await stored(raw, name);
      const newestThree = before.get("")!.slice(0, 3);
      const readBefore = await reads(saver, name, scenario.placement, newestThree);

      const three = await prune(saver, { keepLast: 3, threadId: name });
      expect(three.scanned).toBe(1);
      const afterThree = await stored(raw, name);
      expect(afterThree.get("")!.slice(0, 3)).toEqual(newestThree);
      expect(await reads(saver, name, scenario.placement, newestThree)).toEqual(
        narrowed(readBefore, afterThree.keys(), 3),
      );

      const one = await prune(raw, { keepLast: 1, threadId: name });
      const after = await stored(raw, name);
      const promised = scenario.keeps(before);
      if (promised) expect(flat(after).sort()).toEqual(promised.sort());
      else expect(flat(after).length).toBeLessThan(flat(before).length);
      expect(three.removed.checkpoints + one.removed.checkpoints).toBe(flat(before).length - flat(after).length);
      expect(one.kept).toBe(flat(after).length);
      expect(await reads(saver, name, scenario.placement, newestThree.slice(0, 1))).toEqual(
        narrowed(readBefore, after.keys(), 1),
      );

      expect(await nextSteps(saver, name, scenario)).toEqual(await nextSteps(saver, `${name} (copy)`, scenario));
    },
  );
});
