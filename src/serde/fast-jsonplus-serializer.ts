import { JsonPlusSerializer } from "../langgraph-features.js";
import { prepareWrite } from "./prepare-write.js";
import { reviveJsonPlus } from "./revive.js";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A drop-in `JsonPlusSerializer` that writes the same bytes and reads the same values, several times faster
 * (docs/serializer.md). Pass it wherever a saver takes a serde:
 *
 * ```ts
 * const serde = new FastJsonPlusSerializer();
 * new MemorySaver(serde);
 * SqliteSaver.fromConnString(":memory:", serde); // or new SqliteSaver(db, serde)
 * new PostgresSaver(pool, serde);
 * ```
 *
 * Like the stock serializer, it builds LangChain objects from stored data: read only checkpoints you wrote.
 */
export class FastJsonPlusSerializer extends JsonPlusSerializer {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature of JsonPlusSerializer._dumps
  protected override _dumps(obj: any): Uint8Array {
    const prepared = prepareWrite(obj);
    if (prepared === undefined) return super._dumps(obj);
    try {
      // Acyclic plain JSON data, which the stock replacer (`_default` in every 1.x) returns as it is.
      if (!prepared.needsReplacer) return encoder.encode(JSON.stringify(prepared.value));
      return super._dumps(prepared.value);
    } catch {
      // Only nesting deeper than the stack: the stock writer's outcome.
      return super._dumps(obj);
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature of SerializerProtocol.loadsTyped
  override async loadsTyped(type: string, data: Uint8Array | string): Promise<any> {
    if (type !== "json") return super.loadsTyped(type, data);
    const text = typeof data === "string" ? data : decoder.decode(data);
    const parsed: unknown = JSON.parse(text);
    try {
      return reviveJsonPlus(parsed);
    } catch {
      // A shape left to the stock reviver, or a constructor's error (stock may throw another message's first).
      return super.loadsTyped(type, text);
    }
  }
}
