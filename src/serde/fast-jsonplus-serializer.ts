import { JsonPlusSerializer } from "../langgraph-features.js";
import { prepareWrite } from "./prepare-write.js";
import { NEEDS_STOCK_REVIVER, reviveJsonPlus } from "./revive.js";

const decoder = new TextDecoder();

/**
 * A drop-in `JsonPlusSerializer` that reads the same bytes several times
 * faster. It writes exactly what the stock serializer writes (it is the stock
 * writer), and reads back exactly what the stock serializer would: LangChain
 * messages of the same classes with the same fields, `undefined` values, and
 * plain JSON are revived in one synchronous pass; any other shape (other
 * LangChain classes, Set, Map, RegExp, Error, Uint8Array, delta snapshots)
 * is read by the stock reviver.
 *
 * Pass it wherever a saver takes a serde:
 *
 * ```ts
 * const serde = new FastJsonPlusSerializer();
 * new MemorySaver(serde);
 * SqliteSaver.fromConnString(":memory:", serde); // or new SqliteSaver(db, serde)
 * new PostgresSaver(pool, serde);
 * ```
 *
 * `IORedisSaver` uses it by default. Like the stock serializer, it builds
 * LangChain objects from stored data: read only checkpoints you wrote.
 */
export class FastJsonPlusSerializer extends JsonPlusSerializer {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature of JsonPlusSerializer._dumps
  protected override _dumps(obj: any): Uint8Array {
    const prepared = prepareWrite(obj);
    if (prepared === undefined) return super._dumps(obj);
    try {
      return super._dumps(prepared);
    } catch {
      // Only a walk deeper than the stack (one level more per converted message): the stock writer's own outcome.
      return super._dumps(obj);
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature of SerializerProtocol.loadsTyped
  override async loadsTyped(type: string, data: Uint8Array | string): Promise<any> {
    if (type !== "json") return super.loadsTyped(type, data);
    const text = typeof data === "string" ? data : decoder.decode(data);
    try {
      return reviveJsonPlus(JSON.parse(text));
    } catch (error) {
      if (error !== NEEDS_STOCK_REVIVER) throw error;
      return super.loadsTyped(type, text);
    }
  }
}
