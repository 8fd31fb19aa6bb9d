import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, CheckpointTuple, DeltaChannelHistory } from "@langchain/langgraph-checkpoint";
import { isDeltaSnapshot } from "../langgraph-features.js";
import { policyFor, type TailPolicy } from "../options/policy.js";
import type { Repair } from "../repair/report/catalog.js";
import { repairWith, type TailKind } from "../repair/repair-messages.js";
import { findTailStart, lastTurnUnclosed } from "../repair/walk/tail.js";
import { deltaMessageChannels, withLists, type DeltaMessages } from "./delta-history.js";
import { repairList } from "./repair-list.js";
import { repairWithInput, rewriteList, storedInputList } from "./run-input.js";
import type { ReadDecision, ReadDecisions } from "./read-decisions.js";
import type { ChannelRepairs, TupleRepairSettings } from "./sanitize-tuple.js";
import type { ReadTally } from "./span-attributes.js";
import { strandedResults } from "./stranded-results.js";
import { tailForList } from "./tail-policy.js";
import { hasPendingTasks, storedInput } from "./thread-state.js";
import { MAX_RUN_STEPS } from "./read-reach.js";

interface RepairedRunStart {
  parent: CheckpointTuple;
  lists: Map<string, unknown[]>;
  /** The input the run started with, as its first read rewrote it. */
  input: unknown;
}

type RunStep = Pick<ReadDecision, "source" | "parentConfig" | "storedInput">;

const stepOf = (tuple: CheckpointTuple | undefined): RunStep | undefined =>
  tuple && {
    source: tuple.metadata?.source,
    parentConfig: tuple.parentConfig,
    storedInput: storedInput(tuple.checkpoint),
  };

/** By id: both were rebuilt separately. */
function startsWith(messages: readonly unknown[], prefix: readonly unknown[]): boolean {
  if (prefix.length > messages.length) return false;
  const idOf = (m: unknown) => (m as { id?: unknown }).id;
  return prefix.every((m, i) => idOf(m) !== undefined && idOf(m) === idOf(messages[i]));
}

/**
 * A list channel stores the list its run's first read repaired; a delta channel only the writes, so a delta history
 * read redoes that repair to rebuild the same list (docs/delta-channels.md). @internal
 */
export class DeltaReads {
  constructor(
    private readonly inner: BaseCheckpointSaver<string | number>,
    private readonly settings: TupleRepairSettings,
    private readonly policy: TailPolicy,
    private readonly decisions: ReadDecisions,
    /** With the tail used and the channels repaired (possibly none). */
    private readonly report: (
      config: RunnableConfig,
      tail: TailKind,
      repaired: ChannelRepairs[],
      tally: ReadTally | undefined,
    ) => void,
  ) {}

  /** `tally` counts the read's repairs for its span. */
  async read(
    options: { config: RunnableConfig; channels: string[] },
    tally?: ReadTally,
  ): Promise<Record<string, DeltaChannelHistory>> {
    const { config } = options;
    // Recalled before the await: a read of the same checkpoint meanwhile must not change the decision.
    const recalled = this.decisions.recall(config);
    const histories = await this.inner.getDeltaChannelHistory(options);
    const policy = policyFor(config, this.policy);
    const decision = recalled ?? { tail: tailForList(policy), auto: policy === "auto" };
    if (decision.tail === "off") return histories;
    const channels = await deltaMessageChannels(histories, this.settings.channels);
    if (channels.length === 0) return histories;
    const runStart = this.mayFollowRepairedRead(decision, recalled === undefined, channels)
      ? await this.repairedRunStart(config, recalled, options.channels)
      : undefined;

    const lists = new Map<string, unknown[]>();
    const repaired: ChannelRepairs[] = [];
    for (const { channel, messages } of channels) {
      let list = messages;
      const earlier: Repair[] = [];
      const start = runStart?.lists.get(channel);
      if (start && startsWith(messages, start)) {
        const recovered = strandedResults(runStart!.parent.pendingWrites, channel).messages;
        const sent = storedInputList(runStart!.input, channel);
        const first = sent && repairWithInput(start, sent, this.settings.repair, "stopped", recovered);
        const result = first?.result ?? repairWith(start, this.settings.repair, "stopped", recovered);
        earlier.push(...result.repairs);
        list = [...(first ? first.stored : result.messages), ...messages.slice(start.length)];
      }
      const recovered =
        decision.tail === "stopped" ? strandedResults(decision.pendingWrites, channel).messages : undefined;
      // The run's input, once: its first read of the channel.
      const input = decision.input?.get(channel);
      decision.input?.delete(channel);
      const withInput = input && repairWithInput(list, input, this.settings.repair, decision.tail, recovered);
      const result =
        withInput?.result ??
        repairList(list, this.settings.repair, decision.tail, recovered, decision.interrupted === true);
      if (earlier.length === 0 && result.repairs.length === 0) continue;
      if (withInput) rewriteList(input!, withInput.input);
      const read = withInput ? withInput.stored : result.messages;
      if (read !== messages) lists.set(channel, [...read]);
      repaired.push({ channel, repairs: [...earlier, ...result.repairs] });
    }
    this.report(config, decision.tail, repaired, tally);
    return withLists(histories, lists);
  }

  /** The checkpoint took new input, or its last user turn follows another or tool results with nothing between. */
  private mayFollowRepairedRead(decision: ReadDecision, unread: boolean, channels: DeltaMessages[]): boolean {
    if (decision.tail !== "resumable" || !decision.auto) return false;
    if (channels.some(({ messages }) => lastTurnUnclosed(messages))) return true;
    const openTail = channels.some(({ messages }) => findTailStart(messages) < messages.length);
    return openTail && (unread || decision.source === "input");
  }

  /** New input discards pending tasks, so the read for it closed the tail of a parent that had some. */
  private async repairedRunStart(
    config: RunnableConfig,
    recalled: ReadDecision | undefined,
    channels: string[],
  ): Promise<RepairedRunStart | undefined> {
    let at: RunStep | undefined = recalled ?? stepOf(await this.inner.getTuple(config));
    for (let steps = 0; at !== undefined && at.source !== "input"; steps++) {
      if (at.parentConfig === undefined || steps >= MAX_RUN_STEPS) return undefined;
      at = stepOf(await this.inner.getTuple(at.parentConfig));
    }
    if (at?.parentConfig === undefined) return undefined;
    const parent = await this.inner.getTuple(at.parentConfig);
    if (!parent || !hasPendingTasks(parent.checkpoint)) return undefined;
    // A channel the parent holds a snapshot of is read from it, as the graph does.
    const values = parent.checkpoint.channel_values;
    const stored = (c: string) => (isDeltaSnapshot(values[c]) ? (values[c] as { value: unknown }).value : values[c]);
    const walked = channels.filter((c) => stored(c) === undefined);
    const histories: Record<string, DeltaChannelHistory> =
      walked.length > 0 ? await this.inner.getDeltaChannelHistory({ config: parent.config, channels: walked }) : {};
    for (const c of channels) if (stored(c) !== undefined) histories[c] = { seed: stored(c), writes: [] };
    const lists = (await deltaMessageChannels(histories, this.settings.channels)).map(
      (c) => [c.channel, c.messages] as const,
    );
    return { parent, lists: new Map(lists), input: at.storedInput };
  }
}
