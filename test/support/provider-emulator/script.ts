/** What the emulator answers, in provider-neutral terms; each provider module encodes it in its own wire format. */

export interface ScriptedCall {
  name: string;
  args?: Record<string, unknown>;
  /** Arguments sent as this raw text instead of `args` (malformed JSON gives the client an invalid tool call). */
  rawArgs?: string;
}

export interface ScriptedReply {
  text?: string;
  calls?: ScriptedCall[];
  /** Reasoning sent before the text: a signed thinking block, a reasoning item or a `thoughtSignature`. */
  thinking?: string;
  /** Stream the first text chunk, then hold the response open until the client goes away. */
  hang?: boolean;
  /** Wait this long before each streamed frame (or before a JSON body), so a reply takes time to arrive. */
  frameDelayMs?: number;
}

/** The last entry of the history a request carries: what a script usually decides on. */
export interface LastTurn {
  role: "user" | "tool" | "assistant" | "none";
  text: string;
}

export type Script = (last: LastTurn) => ScriptedReply;

/** A rejection as the provider returns it. */
export interface Rejection {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The reply's arguments as JSON text. */
export const argsText = (call: ScriptedCall) => call.rawArgs ?? JSON.stringify(call.args ?? {});

/** A text as its stream chunks: one per word, at least one. */
export function splitText(text: string): string[] {
  const words = text.split(/(?<= )/).filter((w) => w !== "");
  return words.length > 0 ? words : [""];
}
