// Leaves behind every kind of state the leak check looks for; the run must fail this file naming each one.
import { ProxyTracerProvider, trace } from "@opentelemetry/api";
import { it } from "vitest";

// Top-level code runs before the file's tests, and counts.
process.env.LEAK_CHECK_ADDED = "1";

it("changes process-wide state and leaves it", () => {
  process.env.LEAK_CHECK_CHANGED = "after";
  delete process.env.LEAK_CHECK_REMOVED;
  (globalThis as Record<string, unknown>).leakCheckAdded = 1;
  globalThis.fetch = async () => new Response("stub");
  trace.setGlobalTracerProvider(new ProxyTracerProvider());
});
