// A saver on the stock `JsonPlusSerializer` reads through a `FastJsonPlusSerializer`, which writes the same bytes and
// reads every stored value to the stock result or error, so the saver's other users (an unwrapped graph sharing it,
// another process on the same store) see nothing change but the time a read takes. A serializer the app chose (a
// subclass, an encrypting one, anything set on the instance) stays.
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { JsonPlusSerializer } from "../langgraph-features.js";
import { FastJsonPlusSerializer } from "../serde/fast-jsonplus-serializer.js";

/** The installed stock serializer itself: not a subclass, not a copy from another install, nothing set on it. */
function isStockSerializer(serde: unknown): boolean {
  return (
    typeof serde === "object" &&
    serde !== null &&
    Object.getPrototypeOf(serde) === JsonPlusSerializer.prototype &&
    Reflect.ownKeys(serde).length === 0
  );
}

/** Makes `saver` read through `FastJsonPlusSerializer` when it uses the stock serializer. @internal */
export function readFastThrough(saver: BaseCheckpointSaver): void {
  // Reflect.set, not an assignment: a saver whose serde cannot be set (frozen, a getter) keeps reading as it did.
  if (isStockSerializer(saver.serde)) Reflect.set(saver, "serde", new FastJsonPlusSerializer());
}
