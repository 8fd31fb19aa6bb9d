/** Chat histories for benchmarks: ReAct rounds of question, tool call, tool result, answer. */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { emptyCheckpoint, uuid6, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** Where a history is broken, if anywhere. */
export type HistoryState = "clean" | "broken-tail" | "broken-mid" | "broken-every-round";

/**
 * `size` messages (rounded down to whole rounds of 4). "broken-mid" loses one
 * tool result in the middle (pattern B); "broken-tail" ends in an unanswered
 * tool call, as a run cancelled during its tools leaves it; "broken-every-round"
 * loses every tool result, a repair every four messages.
 */
export function history(size: number, state: HistoryState = "clean"): BaseMessage[] {
  const rounds = Math.max(1, Math.floor(size / 4));
  const out: BaseMessage[] = [];
  for (let r = 0; r < rounds; r++) {
    out.push(new HumanMessage({ id: `h${r}`, content: `question ${r}` }));
    out.push(
      new AIMessage({
        id: `a${r}`,
        content: "",
        tool_calls: [{ id: `c${r}`, name: "search", args: { q: `q${r}` }, type: "tool_call" }],
      }),
    );
    const last = r === rounds - 1;
    const lost =
      state === "broken-every-round" ||
      (state === "broken-mid" && r === Math.floor(rounds / 2)) ||
      (state === "broken-tail" && last);
    if (!lost) {
      out.push(new ToolMessage({ id: `t${r}`, content: `result ${r}`, tool_call_id: `c${r}` }));
    }
    if (!(state === "broken-tail" && last)) out.push(new AIMessage({ id: `f${r}`, content: `answer ${r}` }));
  }
  return out;
}

/**
 * Stores one checkpoint holding `messages`; a broken tail also gets the
 * pending task a cancelled run leaves. With `earlier`, that many checkpoints
 * come first, each with a new version of every channel and a pending write,
 * as the steps of a long-running thread leave them (their messages are kept
 * short: only the stored rows count, not their size).
 */
export async function seed(saver: BaseCheckpointSaver, thread: string, size: number, state: HistoryState, earlier = 0) {
  let config: RunnableConfig = { configurable: { thread_id: thread, checkpoint_ns: "" } };
  let version: number | undefined;
  for (let step = 0; step <= earlier; step++) {
    const checkpoint = emptyCheckpoint();
    checkpoint.id = uuid6(step); // the step as clock sequence: ids stay in order within one clock tick
    version = saver.getNextVersion(version);
    const last = step === earlier;
    checkpoint.channel_values = {
      messages: history(last ? size : 4, last ? state : "clean"),
      ...(state === "broken-tail" || !last ? { "branch:to:tools": null } : {}),
    };
    checkpoint.channel_versions = Object.fromEntries(Object.keys(checkpoint.channel_values).map((c) => [c, version!]));
    const metadata = { source: "loop" as const, step: step + 1, parents: {} };
    config = await saver.put(config, checkpoint, metadata, checkpoint.channel_versions);
    if (!last) await saver.putWrites(config, [["messages", []]], `task-${step}`);
  }
  return config;
}
