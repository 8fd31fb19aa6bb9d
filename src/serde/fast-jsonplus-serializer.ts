import { JsonPlusSerializer } from "../langgraph-features.js";
import { prepareWrite } from "./prepare-write.js";
import { reviveJsonPlus } from "./revive.js";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A drop-in `JsonPlusSerializer` that reads the same bytes several times
 * faster, and writes them faster too.
 *
 * It writes exactly the bytes the stock serializer writes: messages of the
 * `@langchain/core` message classes holding plain data are put in their
 * `toJSON()` form without calling it (most of a stock write), and the rest is
 * left to the stock writer (see `prepare-write.ts` for why the bytes are the
 * same). It reads back exactly what the stock serializer would: LangChain
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
      // Acyclic, so the stock writer's cycle walk would change nothing; plain JSON data, which its replacer
      // (`_default` in every 1.x) returns as it is: what is left of the stock writer is JSON.stringify and UTF-8.
      if (!prepared.needsReplacer) return encoder.encode(JSON.stringify(prepared.value));
      return super._dumps(prepared.value);
    } catch {
      // Only nesting deeper than the stack (a converted message is one level deeper): the stock writer's outcome.
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
