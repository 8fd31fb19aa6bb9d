// Only what is broken changes: finished histories that real apps store on purpose, which OpenAI accepts as they
// are, read exactly as stored (getTuple, list, getState, the doctor) unless the app names a provider whose role
// order they break. Each history below is one a user reported rewritten on every read.
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { DoctorReport } from "../../src/cli/doctor.js";
import { SanitizingCheckpointer, sanitizeGraph, type PatternId } from "../../src/index.js";
import { providerError } from "../support/oracle/provider-rejections.js";
import { storeFinishedRun } from "../support/graphs/wire-agents.js";
import { reactGraph } from "../support/graphs/react-graph.js";
import { agentModel, LOOKUP_RESULT } from "../support/graphs/scenarios.js";

const human = (id: string, content: string) => new HumanMessage({ id, content });
const ai = (id: string, content: string, name?: string) => new AIMessage({ id, content, name });

/** Each history, and the patterns that repair it under `provider: "bedrock"`. */
const HISTORIES: Record<string, { messages: BaseMessage[]; bedrock: PatternId[] }> = {
  "a supervisor's agent answers, then hands back to the supervisor": {
    messages: [
      human("h1", "Weather in Paris?"),
      ai("a1", "It is sunny in Paris.", "weather_agent"),
      ai("a2", "Transferring back to supervisor", "weather_agent"),
      ai("a3", "It is sunny in Paris.", "supervisor"),
    ],
    bedrock: ["K", "K"],
  },
  "a parent command from a grandchild graph: Human, AI, AI": {
    messages: [human("h1", "hi"), ai("a1", "grandkid"), ai("a2", "robert")],
    bedrock: ["K"],
  },
  "a state reset by Overwrite to one AIMessage": { messages: [ai("a1", "reset")], bedrock: ["J"] },
  "an opening greeting stored as the first AIMessage": {
    messages: [ai("g", "Hi! How can I help?"), human("h1", "Weather?"), ai("a1", "Sunny.")],
    bedrock: ["J"],
  },
  "two HumanMessages sent in one input: a document, then the question": {
    messages: [human("d", "<document>"), human("q", "Summarize it."), ai("a1", "A summary.")],
    bedrock: ["A"],
  },
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function sqlite() {
  const dir = mkdtempSync(join(tmpdir(), "finished-"));
  dirs.push(dir);
  const file = join(dir, "threads.sqlite");
  return { saver: SqliteSaver.fromConnString(file), file };
}

const ids = (tuple: CheckpointTuple | undefined) =>
  (tuple?.checkpoint.channel_values.messages as BaseMessage[]).map((m) => m.id);

async function listed(saver: BaseCheckpointSaver, thread: string) {
  const out: CheckpointTuple[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: thread } })) out.push(tuple);
  return out;
}

async function doctor(...argv: string[]) {
  const out: string[] = [];
  await main(["doctor", ...argv, "--json"], { stdout: (t) => out.push(t), stderr: () => {}, isTTY: false });
  return JSON.parse(out.join("\n")) as DoctorReport;
}

describe.each(Object.entries(HISTORIES))("%s", (_, { messages, bedrock }) => {
  it("is accepted by OpenAI as stored, and rejected by Bedrock", () => {
    expect(providerError("openai", messages)).toBeUndefined();
    expect(providerError("bedrock", messages)).toBeDefined();
  });

  it.each([
    ["MemorySaver", async () => ({ saver: new MemorySaver() as BaseCheckpointSaver, file: undefined })],
    ["SqliteSaver", sqlite],
  ] as const)("reads as stored on %s: getTuple, list, getState and the doctor", async (_, open) => {
    const { saver, file } = await open();
    await storeFinishedRun(saver, "t", messages);
    const config = { configurable: { thread_id: "t" } };
    const wrapped = new SanitizingCheckpointer(saver);
    expect(await wrapped.getTuple(config)).toEqual(await saver.getTuple(config));
    expect(await listed(wrapped, "t")).toEqual(await listed(saver, "t"));
    const tools = { search: () => "sunny", lookup: () => LOOKUP_RESULT };
    const graph = sanitizeGraph(reactGraph({ model: agentModel("openai"), tools }).compile(wrapped));
    const raw = reactGraph({ model: agentModel("openai"), tools }).compile(saver);
    expect((await graph.getState(config)).values).toEqual((await raw.getState(config)).values);

    // Under Bedrock's rules, the role order is repaired on read.
    const strict = new SanitizingCheckpointer(saver, { provider: "bedrock" });
    const repaired = (await strict.getTuple(config))!.checkpoint.channel_values.messages as BaseMessage[];
    expect(repaired.length).toBe(messages.length + bedrock.length);
    expect(providerError("bedrock", [...repaired, human("next", "next")])).toBeUndefined();
    expect(ids(await strict.getTuple(config))).not.toEqual(ids(await saver.getTuple(config)));

    if (file === undefined) return;
    const report = await doctor("--sqlite", file);
    expect(report.broken).toBe(0);
    const underBedrock = await doctor("--sqlite", file, "--provider", "bedrock");
    expect(underBedrock.broken).toBe(1);
    const counts: Partial<Record<PatternId, number>> = {};
    for (const code of bedrock) counts[code] = (counts[code] ?? 0) + 1;
    expect(underBedrock.patterns).toEqual(counts);
  });
});
