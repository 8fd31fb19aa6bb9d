/**
 * Measures every journey after a Stop (test/support/front-ends/) on every client, stop, entry point and strict
 * profile, in process, and prints the table docs/deployment.md holds: for each entry point, the profiles that
 * answered every request. Prints only; `npm run front-ends:table` takes a few minutes.
 */
import { CLIENTS } from "../test/support/front-ends/clients.js";
import { ENTRY_POINTS, JOURNEYS, STOPS, runJourney } from "../test/support/front-ends/journeys.js";
import { PROVIDER_PROFILES, type ProviderProfile } from "../test/support/oracle/provider-rejections.js";

const SHORT: Record<ProviderProfile, string> = {
  anthropic: "An",
  openai: "O",
  bedrock: "B",
  gemini: "G",
  mistral: "M",
};

/** "all", "none", or the profiles that answered. */
const cell = (answered: ProviderProfile[]) =>
  answered.length === PROVIDER_PROFILES.length
    ? "all"
    : answered.length === 0
      ? "none"
      : answered.map((p) => SHORT[p]).join(" ");

console.log(`| client | journey | stop | ${ENTRY_POINTS.join(" | ")} |`);
console.log(`|---|---|---|${ENTRY_POINTS.map(() => "---").join("|")}|`);
for (const client of CLIENTS) {
  for (const journey of JOURNEYS) {
    for (const stop of STOPS) {
      const cells: string[] = [];
      for (const entry of ENTRY_POINTS) {
        const answered: ProviderProfile[] = [];
        let offered = true;
        for (const profile of PROVIDER_PROFILES) {
          const result = await runJourney({ client, journey, stop, entry, profile }).catch(() => undefined);
          offered = result?.offered ?? true;
          if (!offered) break;
          if (result?.answered) answered.push(profile);
        }
        cells.push(offered ? cell(answered) : "not offered");
      }
      if (cells.every((c) => c === "not offered")) continue;
      console.log(`| ${client} | ${journey} | ${stop} | ${cells.join(" | ")} |`);
    }
  }
}
