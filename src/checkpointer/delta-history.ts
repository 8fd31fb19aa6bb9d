import type { DeltaChannelHistory, DeltaSnapshot } from "@langchain/langgraph-checkpoint";
import { deltaSnapshot, isDeltaSnapshot, loadDeltaChannel, type DeltaChannelClasses } from "../langgraph-features.js";
import { isMessageLike } from "../messages/message-view.js";

// Mirrors @langchain/langgraph's Overwrite wire forms, which replayWrites unwraps.
const overwritten = (value: unknown): unknown => {
  if (typeof value !== "object" || value === null) return value;
  if ("__overwrite__" in value) return (value as { __overwrite__: unknown }).__overwrite__;
  const rec = value as { type?: unknown; value?: unknown };
  return rec.type === "__overwrite__" && "value" in rec ? rec.value : value;
};

const messagesOrList = (value: unknown): boolean =>
  Array.isArray(value) ? value.every(isMessageLike) : isMessageLike(value);

/** The conformance suite stores numbers and strings in a channel named `messages`, which must come back as is. */
function holdsMessages(history: DeltaChannelHistory): boolean {
  const seed = isDeltaSnapshot(history.seed) ? history.seed.value : history.seed;
  if (seed === undefined ? history.writes.length === 0 : !(Array.isArray(seed) && seed.every(isMessageLike)))
    return false;
  return history.writes.every(([, , value]) => messagesOrList(overwritten(value)));
}

/** By LangGraph's own replay: seed, then writes through `messagesDeltaReducer`. */
export function rebuildMessages(
  history: DeltaChannelHistory,
  { DeltaChannel, messagesDeltaReducer }: DeltaChannelClasses,
): unknown[] {
  const channel = new DeltaChannel(messagesDeltaReducer).fromCheckpoint(history.seed as DeltaSnapshot | undefined);
  channel.replayWrites(history.writes);
  return channel.isAvailable() ? (channel.get() as unknown[]) : [];
}

export interface DeltaMessages {
  channel: string;
  history: DeltaChannelHistory;
  messages: unknown[];
}

/** LangGraph's delta channel is loaded only when there is one. @internal */
export async function deltaMessageChannels(
  histories: Record<string, DeltaChannelHistory>,
  channels: readonly string[] | undefined,
): Promise<DeltaMessages[]> {
  const found = Object.keys(histories).filter(
    (channel) => (channels === undefined || channels.includes(channel)) && holdsMessages(histories[channel]!),
  );
  if (found.length === 0) return [];
  const classes = await loadDeltaChannel();
  return found.map((channel) => {
    const history = histories[channel]!;
    return { channel, history, messages: rebuildMessages(history, classes) };
  });
}

/** A seed holding the list and no writes: the graph rebuilds exactly that list. */
export function withLists(
  histories: Record<string, DeltaChannelHistory>,
  lists: ReadonlyMap<string, unknown[]>,
): Record<string, DeltaChannelHistory> {
  if (lists.size === 0) return histories;
  const result = { ...histories };
  for (const [channel, messages] of lists) result[channel] = { seed: deltaSnapshot(messages), writes: [] };
  return result;
}
