import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

type Call = (this: BaseCheckpointSaver, ...args: unknown[]) => unknown;

/**
 * Makes every store call of a saver class (`getTuple`, `list`, `put`, `putWrites`, `deleteThread`, its own or
 * inherited) throw `explain(error)` instead of `error`, so an outage reaches the app in the store's own words with the
 * setting that rides it out. Called once, right after the class. @internal
 */
export function explainErrorsOf(
  Saver: abstract new (...args: never[]) => BaseCheckpointSaver,
  explain: (error: unknown) => unknown,
): void {
  const proto = Saver.prototype as unknown as Record<string, Call>;
  const rethrow = (error: unknown): never => {
    throw explain(error);
  };
  const define = (name: string, value: Call) =>
    Object.defineProperty(proto, name, { value, writable: true, configurable: true, enumerable: false });
  for (const name of ["getTuple", "put", "putWrites", "deleteThread"]) {
    const call = proto[name]!;
    define(name, function (...args) {
      return (call.apply(this, args) as Promise<unknown>).catch(rethrow);
    });
  }
  const list = proto.list!;
  define("list", async function* (this: BaseCheckpointSaver, ...args: unknown[]) {
    try {
      yield* list.apply(this, args) as AsyncGenerator<unknown>;
    } catch (error) {
      rethrow(error);
    }
  });
}
