// When a checkpoint was made, read off its id: LangGraph (JS and Python) names checkpoints with time-ordered UUIDs
// (version 6; 1 and 7 are read too), so no checkpoint body is read to judge its age.

/** 100-nanosecond intervals between the Gregorian epoch (1582-10-15) and the Unix one, in milliseconds. */
const GREGORIAN_OFFSET_MS = 12_219_292_800_000;
const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([167])([0-9a-f]{3})-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Milliseconds since the Unix epoch, or `undefined` for an id that is not a time-based UUID. @internal */
export function checkpointTime(id: string): number | undefined {
  const match = UUID.exec(id);
  if (!match) return undefined;
  const [, first, second, version, third] = match as unknown as [string, string, string, string, string];
  if (version === "7") return parseInt(first + second, 16);
  // Version 6 orders the 60-bit timestamp from its high bits down; version 1 from its low bits up.
  const [high, mid, low] = version === "6" ? [first, second, third] : [third, second, first];
  const ticks =
    parseInt(high, 16) * 2 ** (version === "6" ? 28 : 48) + parseInt(mid, 16) * 2 ** (version === "6" ? 12 : 32);
  return (ticks + parseInt(low, 16)) / 10_000 - GREGORIAN_OFFSET_MS;
}
