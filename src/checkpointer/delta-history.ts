import { DeltaChannel, messagesDeltaReducer } from "@langchain/langgraph";
import { DeltaSnapshot, isDeltaSnapshot, type DeltaChannelHistory } from "@langchain/langgraph-checkpoint";
import { isMessageLike } from "../messages/message-view.js";
import { repairMessages, type TailMode } from "../repair/repair-messages.js";
import type { ChannelRepairs, TupleRepairSettings } from "./sanitize-tuple.js";
import { strandedResults } from "./stranded-results.js";
import type { ReadDecision } from "./read-decisions.js";

// Mirrors @langchain/langgraph's Overwrite wire forms, which replayWrites unwraps.
const overwritten = (value: unknown): unknown => {
  if (typeof value !== "object" || value === null) return value;
  if ("__overwrite__" in value) return (value as { __overwrite__: unknown }).__overwrite__;
  const rec = value as { type?: unknown; value?: unknown };
  return rec.type === "__overwrite__" && "value" in rec ? rec.value : value;
};

const messagesOrList = (value: unknown): boolean =>
  Array.isArray(value) ? value.every(isMessageLike) : isMessageLike(value);

/**
 * Whether the history holds messages only: a seed that is a list of messages
 * and writes that are messages or lists of them. The conformance suite stores
 * numbers and strings in a channel named `messages`, which must come back as is.
 */
function holdsMessages(history: DeltaChannelHistory): boolean {
  const seed = isDeltaSnapshot(history.seed) ? history.seed.value : history.seed;
  if (seed === undefined ? history.writes.length === 0 : !(Array.isArray(seed) && seed.every(isMessageLike))) return false;
  return history.writes.every(([, , value]) => messagesOrList(overwritten(value)));
}

/**
 * The message list a `MessagesDeltaValue` channel rebuilds from `history`,
 * by LangGraph's own replay (seed, then writes through `messagesDeltaReducer`).
 */
export function rebuildMessages(history: DeltaChannelHistory): unknown[] {
  // The seed is a DeltaSnapshot or a plain list (holdsMessages checked it).
  const channel = new DeltaChannel(messagesDeltaReducer).fromCheckpoint(history.seed as DeltaSnapshot | undefined);
  channel.replayWrites(history.writes);
  return channel.isAvailable() ? (channel.get() as unknown[]) : [];
}

/**
 * Repairs the delta message channels of `histories` (what `getDeltaChannelHistory`
 * returned) with `decision.tail`. A repaired channel is handed back as a seed
 * holding the repaired list and no writes, which the graph rebuilds into exactly
 * that list; an unrepaired one is the wrapped saver's entry itself.
 * @internal
 */
export function sanitizeDeltaHistories(
  histories: Record<string, DeltaChannelHistory>,
  decision: ReadDecision & { tail: TailMode },
  settings: TupleRepairSettings,
): { histories: Record<string, DeltaChannelHistory>; repaired: ChannelRepairs[] } {
  let result: Record<string, DeltaChannelHistory> | undefined;
  const repaired: ChannelRepairs[] = [];
  for (const channel of Object.keys(histories)) {
    if (settings.channels !== undefined && !settings.channels.includes(channel)) continue;
    const history = histories[channel]!;
    if (!holdsMessages(history)) continue;
    const stranded = decision.tail === "repair" ? strandedResults(decision.pendingWrites, channel) : undefined;
    const { messages, repairs } = repairMessages(rebuildMessages(history), {
      ...settings.repair,
      tail: decision.tail,
      recoveredResults: stranded?.messages,
    });
    if (repairs.length === 0) continue;
    result ??= { ...histories };
    result[channel] = { seed: new DeltaSnapshot(messages), writes: [] };
    repaired.push({ channel, repairs });
  }
  return { histories: result ?? histories, repaired };
}
