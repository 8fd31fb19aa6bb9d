// Every button a chat front end offers after Stop, as each front end's own source sends it
// (test/support/front-ends/clients.ts), then one more message: through sanitizeGraph and through the createAgent
// middleware, every model request of every profile is answered, each call once, and the stopped turn's finished
// result reaches the model while its call is in the history. Raw, the same journeys are rejected.
import { describe, expect, it } from "vitest";
import { MARKER_PRESETS, isSyntheticMessage } from "../../src/index.js";
import { CLIENTS, type ClientName } from "../support/front-ends/clients.js";
import type { WireMessage } from "../support/front-ends/thread-api.js";
import {
  JOURNEYS,
  STOPS,
  runJourney,
  type EntryPoint,
  type Journey,
  type Stop,
} from "../support/front-ends/journeys.js";
import { PROVIDER_PROFILES, type ProviderProfile } from "../support/oracle/provider-rejections.js";
import { LOOKUP_RESULT } from "../support/graphs/scenarios.js";

/** Where `entry` answers every request of the journey, and what the requests were where it does not. */
async function answeredOn(client: ClientName, journey: Journey, stop: Stop, entry: EntryPoint) {
  const answered: ProviderProfile[] = [];
  const failures: string[] = [];
  let offered = true;
  for (const profile of PROVIDER_PROFILES) {
    const result = await runJourney({ client, journey, stop, entry, profile });
    offered = result.offered;
    if (!offered) break;
    if (result.answered) answered.push(profile);
    else failures.push(`${profile}: ${result.rejections[0] ?? "a run did not end"}`);
    // The middleware sees the request only, not the finished results LangGraph keeps in pending writes.
    if (entry === "sanitizeGraph" && stop === "mid-tool" && result.finishedResult !== "not in the request")
      expect(result.finishedResult, `${profile}: the finished lookup's result`).toBe(LOOKUP_RESULT);
  }
  return { offered, answered, failures };
}

describe.each(CLIENTS)("%s: after Stop, every button and one more message", (client) => {
  describe.each(STOPS)("stopped %s", (stop) => {
    it.each(JOURNEYS)("%s: answered on every profile through sanitizeGraph and the middleware", async (journey) => {
      for (const entry of ["sanitizeGraph", "middleware"] as const) {
        const { offered, answered, failures } = await answeredOn(client, journey, stop, entry);
        if (!offered) return;
        expect(answered, `${entry}:\n${failures.join("\n")}`).toEqual(PROVIDER_PROFILES);
      }
    });
  });

  it("raw, the next message after Stop is rejected by some profile, stopped mid-tool and mid-text", async () => {
    for (const stop of STOPS) {
      const { answered } = await answeredOn(client, "next message", stop, "raw");
      expect(answered.length, stop).toBeLessThan(PROVIDER_PROFILES.length);
    }
  });
});

it("assistant-ui's Reload through its docs' stream callbacks ({ messages: [] }) is answered as through its own", async () => {
  for (const stop of STOPS) {
    for (const profile of PROVIDER_PROFILES) {
      const options = { client: "assistant-ui (react-langgraph)", journey: "regenerate", stop, profile } as const;
      const result = await runJourney({ ...options, entry: "sanitizeGraph", emptyReload: true });
      expect(result.rejections, `${stop} ${profile}`).toEqual([]);
      expect(result.answered).toBe(true);
    }
  }
});

describe("what a person sees: no text the sanitizer wrote, though the model gets it", () => {
  const markerTexts = Object.values(MARKER_PRESETS.en) as string[];
  const texts = (messages: readonly { content: unknown }[]) => messages.map((m) => JSON.stringify(m.content));
  const showsMarker = (messages: readonly { content: unknown }[]) =>
    texts(messages).some((text) => markerTexts.some((marker) => text.includes(marker)));

  it("agent-chat-ui, by its own rule, with idPrefix: do-not-render-", async () => {
    // agent-chat-ui's thread view renders `messages.filter((m) => !m.id?.startsWith("do-not-render-"))`.
    const shown = (messages: WireMessage[]) => messages.filter((m) => !m.id?.startsWith("do-not-render-"));
    const journey = { client: "agent-chat-ui", journey: "next message", stop: "mid-tool", profile: "bedrock" } as const;
    const hidden = await runJourney({ ...journey, entry: "sanitizeGraph", sanitizer: { idPrefix: "do-not-render-" } });
    expect(hidden.answered).toBe(true);
    expect(showsMarker(hidden.requests.at(-1)!)).toBe(true);
    expect(showsMarker(shown(hidden.view))).toBe(false);
    // Without the prefix, the page shows them.
    const plain = await runJourney({ ...journey, entry: "sanitizeGraph" });
    expect(showsMarker(shown(plain.view))).toBe(true);
  });

  it.each(CLIENTS)("%s, rendering no message isSyntheticMessage() finds", async (client) => {
    const result = await runJourney({
      client,
      journey: "reload",
      stop: "mid-text",
      profile: "bedrock",
      entry: "sanitizeGraph",
    });
    expect(result.answered).toBe(true);
    expect(showsMarker(result.requests.at(-1)!)).toBe(true);
    // The thread read back holds the repair; a page that skips those messages shows none of its text.
    expect(showsMarker(result.view)).toBe(true);
    expect(showsMarker(result.view.filter((m) => !isSyntheticMessage(m)))).toBe(false);
  });
});
