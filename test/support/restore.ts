/**
 * Putting back process-wide state a test changes. A vitest worker runs file after file in one process, and child
 * processes inherit its environment, so whatever changes either puts it back when it is done
 * (test/support/leak-check.ts fails a file that does not).
 */

/**
 * Sets environment variables (`undefined` deletes one) and returns the function that puts back what was there,
 * deleting what was absent.
 */
export function setEnv(values: Readonly<Record<string, string | undefined>>): () => void {
  const before = Object.keys(values).map((key) => [key, process.env[key]] as const);
  const assign = (key: string, value: string | undefined) => {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  };
  for (const [key, value] of Object.entries(values)) assign(key, value);
  return () => {
    for (const [key, value] of before) assign(key, value);
  };
}

/**
 * Saves the properties `keys` of `globalThis` as they are (value or accessors), before something replaces or adds
 * them; returns the function that puts them back, deleting what was absent.
 */
export function saveGlobals(keys: readonly (string | symbol)[]): () => void {
  const saved = keys.map((key) => [key, Object.getOwnPropertyDescriptor(globalThis, key)] as const);
  return () => {
    for (const [key, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, key, descriptor);
      else delete (globalThis as Record<string | symbol, unknown>)[key];
    }
  };
}

/** What `@hono/node-server` replaces, unless told not to, when it serves: its own, lighter `Request` and `Response`. */
export const HONO_GLOBALS = ["Request", "Response"] as const;

/**
 * What the Agent Server (`startServer` of `@langchain/langgraph-api`) sets on `globalThis` each time it starts, on
 * top of hono's: its loopback fetch into the app it serves, and its logger for the SDK.
 */
export const AGENT_SERVER_GLOBALS = [
  ...HONO_GLOBALS,
  Symbol.for("langgraph_api:fetch"),
  Symbol.for("langgraph.api.sdk-logger"),
] as const;
