/**
 * The provider's side of a chaos thread. Every user message names its thread and turn and says what the model
 * does with it (which tools it calls, how long its reply is), so one emulator script serves every thread at
 * once, whatever the provider, and a thread's requests can be told apart from the others'.
 */
import type { Script, ScriptedReply } from "../../support/provider-emulator/index.js";
import type { ToolName } from "./tools.js";

/** What the model does with one user message. */
export interface TurnDirective {
  /** The tools it calls, in one reply (parallel calls when several). */
  calls: ToolName[];
  /** How many words its text reply streams. */
  words: number;
}

const FORMAT = /chaos (\S+) turn (\d+): call ([a-z ]*)\| say (\d+)/;
/** Any request of a chaos thread holds the thread's tag in each of its user messages. */
const TAG = /chaos (\S+) turn \d+/;

/** The user message of `turn` on `thread`. */
export const userText = (thread: string, turn: number, { calls, words }: TurnDirective) =>
  `chaos ${thread} turn ${turn}: call ${calls.map((c) => `${c} `).join("")}| say ${words}`;

/** The thread a request belongs to, read off the first user message it carries. */
export function threadOfRequest(body: unknown): string | undefined {
  return TAG.exec(JSON.stringify(body))?.[1];
}

/** The arguments of a call: a city unique to the thread, turn and call, so a tool's result is too. */
export const callCity = (thread: string, turn: string, index: number) => `${thread}.${turn}.${index}`;

const reply = (words: number) =>
  Array.from({ length: Math.max(1, words) }, (_, i) => (i === 0 ? "Here" : `w${i}`)).join(" ") + ".";

/** The emulator's script: each frame of each reply `frameDelayMs` apart, so a reply streams over time. */
export function chaosScript(frameDelayMs: number): Script {
  return (last) => {
    const paced: Pick<ScriptedReply, "frameDelayMs"> = frameDelayMs > 0 ? { frameDelayMs } : {};
    if (last.role === "tool") return { text: reply(8), ...paced };
    const directive = last.role === "user" ? FORMAT.exec(last.text) : null;
    if (!directive) return { text: "ok", ...paced };
    const [, thread, turn, calls, words] = directive;
    const names = calls!.trim().split(" ").filter(Boolean);
    return {
      text: reply(Number(words)),
      calls: names.map((name, i) => ({ name, args: { city: callCity(thread!, turn!, i) } })),
      ...paced,
    };
  };
}
