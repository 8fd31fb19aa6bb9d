// The decorator contract: forwards everything, returns the inner tuple when clean, never mutates, fails clearly.
import { type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { BaseCheckpointSaver, MemorySaver, type CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { SanitizingCheckpointer, type RepairEvent } from "../../../src/index.js";
import { calls, human, reply, result } from "../../support/generators/messages.js";

/** A MemorySaver that remembers what it returned and what it was asked. */
class RecordingSaver extends MemorySaver {
  returned: CheckpointTuple[] = [];
  recordedWrites: unknown[][] = [];
  override async getTuple(config: RunnableConfig) {
    const tuple = await super.getTuple(config);
    if (tuple) this.returned.push(tuple);
    return tuple;
  }
  override async putWrites(...args: Parameters<MemorySaver["putWrites"]>) {
    this.recordedWrites.push(args);
    return super.putWrites(...args);
  }
}

/** Stores a checkpoint of a run that stopped midway (a pending `tools` task) with these channel values. */
async function seed(saver: MemorySaver, thread: string, channel_values: Record<string, unknown>) {
  const values = { ...channel_values, "branch:to:tools": null };
  return saver.put(
    { configurable: { thread_id: thread, checkpoint_ns: "" } },
    {
      v: 4,
      id: `00000000-0000-6000-8000-00000000000${thread.length}`,
      ts: new Date(0).toISOString(),
      channel_values: values,
      channel_versions: {},
      versions_seen: {},
    },
    { source: "loop", step: 1, parents: {} },
  );
}

const snapshot = (t: CheckpointTuple) =>
  JSON.stringify(t, (_, v) => (v && typeof v === "object" && typeof v.toDict === "function" ? v.toDict() : v));

describe("SanitizingCheckpointer as a decorator", () => {
  it("returns the inner tuple itself when nothing needs repair", async () => {
    const inner = new RecordingSaver();
    await seed(inner, "clean", { messages: [human("h"), reply("a")] });
    const tuple = await new SanitizingCheckpointer(inner).getTuple({ configurable: { thread_id: "clean" } });
    expect(tuple).toBe(inner.returned.at(-1));
  });

  it("never mutates the tuple the inner saver returned", async () => {
    const inner = new RecordingSaver();
    await seed(inner, "broken", { messages: [human("h"), calls("a", "c1", "c2"), result("t2", "c2")] });
    const tuple = await new SanitizingCheckpointer(inner).getTuple({ configurable: { thread_id: "broken" } });
    const original = inner.returned.at(-1)!;
    const before = snapshot(original);
    expect(tuple).not.toBe(original);
    expect((tuple!.checkpoint.channel_values.messages as BaseMessage[]).length).toBe(5);
    expect(snapshot(original)).toBe(before);
    expect((original.checkpoint.channel_values.messages as BaseMessage[]).length).toBe(3);
  });

  it("forwards put, putWrites (with the task path), getNextVersion, deleteThread and serde", async () => {
    const inner = new RecordingSaver();
    const wrapped = new SanitizingCheckpointer(inner);
    expect(wrapped.serde).toBe(inner.serde);
    expect(wrapped.inner).toBe(inner);
    const config = await seed(inner, "fwd", {});
    const putConfig = await wrapped.put(
      config,
      {
        v: 4,
        id: "00000000-0000-6000-8000-000000000009",
        ts: "",
        channel_values: {},
        channel_versions: {},
        versions_seen: {},
      },
      { source: "loop", step: 2, parents: {} },
      {},
    );
    expect(putConfig.configurable).toMatchObject({
      thread_id: "fwd",
      checkpoint_id: "00000000-0000-6000-8000-000000000009",
    });
    await wrapped.putWrites(putConfig, [["messages", 1]], "task-1", "~__pregel_pull, tools");
    expect(inner.recordedWrites.at(-1)).toEqual([putConfig, [["messages", 1]], "task-1", "~__pregel_pull, tools"]);
    expect(wrapped.getNextVersion(3)).toBe(inner.getNextVersion(3));
    await wrapped.deleteThread("fwd");
    expect(await inner.getTuple({ configurable: { thread_id: "fwd" } })).toBeUndefined();
  });

  it("passes a method it does not know to the wrapped saver, never to the base class's default", async () => {
    // What LangGraph Python's savers gained (copy_thread, prune, delete_for_runs): stand-ins for methods a later
    // BaseCheckpointSaver defines with a default that a saver overrides, and for a saver's own API.
    const base = BaseCheckpointSaver.prototype as unknown as Record<string, unknown>;
    base.deleteForRuns = () => {
      throw new Error("not implemented");
    };
    try {
      class NewerSaver extends MemorySaver {
        calls: unknown[][] = [];
        async copyThread(source: string, target: string) {
          this.calls.push(["copyThread", source, target]);
          return "copied";
        }
        async deleteForRuns(runIds: string[]) {
          this.calls.push(["deleteForRuns", runIds]);
        }
      }
      const inner = new NewerSaver();
      const wrapper = new SanitizingCheckpointer(inner) as unknown as NewerSaver;
      expect(await wrapper.copyThread("a", "b")).toBe("copied");
      await wrapper.deleteForRuns(["run-1"]);
      expect(inner.calls).toEqual([
        ["copyThread", "a", "b"],
        ["deleteForRuns", ["run-1"]],
      ]);
      // A saver that does not override the base default keeps it, and the wrapper's own reads stay its own.
      const plain = new SanitizingCheckpointer(new MemorySaver()) as unknown as Record<string, () => unknown>;
      expect(() => plain.deleteForRuns!()).toThrow("not implemented");
      expect(Object.hasOwn(wrapper, "getTuple")).toBe(false);
      expect(Object.hasOwn(wrapper, "get")).toBe(false);
    } finally {
      delete base.deleteForRuns;
    }
  });

  it("reports each repaired channel through onRepair", async () => {
    const inner = new MemorySaver();
    await seed(inner, "events", { messages: [human("h1"), human("h2")], other: [human("x"), human("y")] });
    const events: RepairEvent[] = [];
    await new SanitizingCheckpointer(inner, { onRepair: (e) => events.push(e) }).getTuple({
      configurable: { thread_id: "events" },
    });
    expect(
      events.map((e) => [e.channel, e.threadId, e.checkpointNs, e.checkpointId, e.tail, e.repairs.map((r) => r.code)]),
    ).toEqual([
      ["messages", "events", "", "00000000-0000-6000-8000-000000000006", "stopped", ["A"]],
      ["other", "events", "", "00000000-0000-6000-8000-000000000006", "stopped", ["A"]],
    ]);
  });

  it("repairs only the listed channels when given, and leaves non-message channels alone by default", async () => {
    const inner = new MemorySaver();
    await seed(inner, "chans", {
      parent_messages: [human("p1"), human("p2")],
      child_messages: [human("c1"), human("c2")],
      notes: ["hi", "there"],
    });
    const read = (options = {}) =>
      new SanitizingCheckpointer(inner, options).getTuple({ configurable: { thread_id: "chans" } });
    const all = (await read())!.checkpoint.channel_values;
    expect((all.parent_messages as unknown[]).length).toBe(3);
    expect((all.child_messages as unknown[]).length).toBe(3);
    expect(all.notes).toEqual(["hi", "there"]);
    const only = (await read({ channels: ["child_messages"] }))!.checkpoint.channel_values;
    expect((only.parent_messages as unknown[]).length).toBe(2);
    expect((only.child_messages as unknown[]).length).toBe(3);
  });

  it.each([
    [
      "no inner saver",
      () => new SanitizingCheckpointer(undefined as never),
      "SanitizingCheckpointer needs a checkpointer to wrap",
    ],
    [
      "an object that is not a saver",
      () => new SanitizingCheckpointer({ getTuple() {} } as never),
      "an object without list, put, putWrites",
    ],
    [
      "an unknown policy",
      () => new SanitizingCheckpointer(new MemorySaver(), { policy: "always" as never }),
      'policy must be one of "auto", "repair", "preserve", "off", got "always".',
    ],
    [
      "a channel name that is not a string",
      () => new SanitizingCheckpointer(new MemorySaver(), { channels: ["messages", 3 as never] }),
      'channels must be a non-empty array of channel names (strings), got ["messages",3].',
    ],
    [
      "an empty channel list",
      () => new SanitizingCheckpointer(new MemorySaver(), { channels: [] }),
      "channels must be a non-empty array",
    ],
    [
      "an unknown bridge role",
      () => new SanitizingCheckpointer(new MemorySaver(), { bridgeRole: "human" as never }),
      'bridgeRole must be one of "ai", "system", got "human".',
    ],
    [
      "an unknown provider",
      () => new SanitizingCheckpointer(new MemorySaver(), { provider: "claude" as never }),
      'provider must be one of "anthropic", "bedrock", "cerebras", "cohere", "deepseek", "gemini", "groq", "mistral", "ollama", "openai", "openrouter", "perplexity", "vertex", "xai", "strictest", got "claude".',
    ],
    [
      "an unknown marker preset",
      () => new SanitizingCheckpointer(new MemorySaver(), { markers: "de" as never }),
      'markers must be "en", "ko" or an object of custom texts, got "de".',
    ],
    [
      "an onRepair that is not a function",
      () => new SanitizingCheckpointer(new MemorySaver(), { onRepair: "log" as never }),
      "onRepair must be a function.",
    ],
  ])("throws a clear error at construction for %s", (_, construct, message) => {
    expect(construct).toThrow(message);
  });
});
