/** What the emulator answers, in provider-neutral terms; each provider module encodes it in its own wire format. */

export interface ScriptedCall {
  name: string;
  args?: Record<string, unknown>;
  /** Arguments sent as this raw text instead of `args` (malformed JSON gives the client an invalid tool call). */
  rawArgs?: string;
}

/** A tool the provider runs itself before it answers: Anthropic's server tools, the Responses API's hosted tools. */
export interface ScriptedServerTool {
  name: "web_search" | "web_fetch" | "code_execution";
  /** The result block Anthropic gives, or the item's status on the Responses API. @default a finished one */
  status?: "completed" | "searching" | "in_progress";
}

/** Where a streamed reply is cut off: the first text chunk, or right after its thinking, server tool or reasoning begins. */
export type CutPoint = "text" | "thinking" | "server-tool" | "reasoning";

export interface ScriptedReply {
  text?: string;
  calls?: ScriptedCall[];
  /** Reasoning sent before the text: a signed thinking block, a reasoning item or a `thoughtSignature`. */
  thinking?: string;
  /** A redacted_thinking block after Anthropic's thinking block. */
  redacted?: boolean;
  /** Tools the provider runs itself, before the text (Anthropic, Responses). */
  serverTools?: ScriptedServerTool[];
  /** The Responses API stopped the response before its end (`status: "incomplete"`). */
  incomplete?: boolean;
  /** Stream up to a point (`true`: the first text chunk), then hold the response open until the client goes away. */
  hang?: boolean | CutPoint;
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
