// Changes the same state as leaks.fixture.ts and puts back what it found in afterAll; the run must pass this file,
// whichever of the two runs first.
import { ProxyTracerProvider, trace } from "@opentelemetry/api";
import { afterAll, it } from "vitest";

const KEYS = ["LEAK_CHECK_ADDED", "LEAK_CHECK_CHANGED", "LEAK_CHECK_REMOVED"];
const savedEnv = new Map(KEYS.map((key) => [key, process.env[key]]));
const savedGlobal = Object.getOwnPropertyDescriptor(globalThis, "leakCheckAdded");
const savedFetch = globalThis.fetch;
process.env.LEAK_CHECK_ADDED = "1";

afterAll(() => {
  for (const [key, value] of savedEnv) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  if (savedGlobal) Object.defineProperty(globalThis, "leakCheckAdded", savedGlobal);
  else delete (globalThis as Record<string, unknown>).leakCheckAdded;
  globalThis.fetch = savedFetch;
  trace.disable();
});

it("changes process-wide state and restores it in afterAll", () => {
  process.env.LEAK_CHECK_CHANGED = "after";
  delete process.env.LEAK_CHECK_REMOVED;
  (globalThis as Record<string, unknown>).leakCheckAdded = 2;
  globalThis.fetch = async () => new Response("stub");
  trace.setGlobalTracerProvider(new ProxyTracerProvider());
});
