/**
 * What a user does after pressing Stop, on each front end: a `createAgent` turn is stopped mid-tool (one of two
 * parallel tools finished) or mid-text, then the user presses one button and sends one more message. Every model
 * request is judged by a strict model of one provider that also rejects a request ending on a reply (the newest
 * models take no prefill).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import { SanitizingCheckpointer, sanitizeGraph, type SanitizingCheckpointerOptions } from "../../../src/index.js";
import { sanitizeMessagesMiddleware } from "../../../src/middleware/index.js";
import { buildAgent, type Agent } from "../graphs/agents.js";
import { LOOKUP_RESULT } from "../graphs/scenarios.js";
import { hangUntilAborted, type ToolFn } from "../graphs/react-graph.js";
import { StrictChatModel } from "../graphs/strict-chat-model.js";
import type { ProviderProfile } from "../oracle/provider-rejections.js";
import { FIRST_QUESTION, NOT_OFFERED, frontEnd, type ClientName, type FrontEnd } from "./clients.js";
import {
  inProcessThread,
  type RunEnd,
  type RunnableThreadGraph,
  type ThreadApi,
  type WireMessage,
} from "./thread-api.js";

export const JOURNEYS = [
  "next message",
  "regenerate",
  "edit the stopped turn",
  "edit an earlier turn",
  "reload",
  "switch branch",
  "second stop",
] as const;
export type Journey = (typeof JOURNEYS)[number];
export const STOPS = ["mid-tool", "mid-text"] as const;
export type Stop = (typeof STOPS)[number];
export const ENTRY_POINTS = ["raw", "sanitizeGraph", "middleware", "checkpointer"] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

export const FOLLOW_UP = "Thanks, and tomorrow?";
const text = (message: BaseMessage) => (typeof message.content === "string" ? message.content : message.text);
const asksWeather = (message: BaseMessage) => message.type === "human" && /weather/i.test(text(message));

/** A model and tools that stop the run where the journey is armed to: at the second token, or once `lookup` finished. */
export function journeyParts(profile: ProviderProfile, onStop: () => void) {
  let armed: Stop | undefined;
  let lookupDone = () => {};
  let lookupFinished = Promise.resolve();
  const press = () => {
    armed = undefined;
    onStop();
  };
  const model = new StrictChatModel({
    profile,
    rejectsPrefill: true,
    script: (messages) => {
      const last = messages.at(-1)!;
      if (asksWeather(last))
        return {
          content: "Let me check both cities. ",
          toolCalls: [
            { name: "search", args: { city: "Paris" } },
            { name: "lookup", args: { city: "Seoul" } },
          ],
        };
      return { content: last.type === "tool" ? "Paris is 15°C, Seoul is 12°C." : "Happy to help with that." };
    },
    onToken: (index) => {
      if (armed === "mid-text" && index === 1) press();
    },
  });
  const tools: Record<string, ToolFn> = {
    search: async (_args, config) => {
      if (armed !== "mid-tool") return "Paris: 15°C";
      await lookupFinished;
      press();
      return hangUntilAborted(config.signal);
    },
    lookup: async () => {
      // Let the sibling task's writes reach the saver before search stops the run.
      setTimeout(lookupDone, 5);
      return LOOKUP_RESULT;
    },
  };
  const arm = (stop: Stop) => {
    armed = stop;
    lookupFinished = new Promise((resolve) => (lookupDone = resolve));
  };
  return { model, tools, arm };
}

/** `createAgent` on `saver` through `entry`. */
export function agentThrough(
  entry: EntryPoint,
  saver: BaseCheckpointSaver,
  parts: { model: StrictChatModel; tools: Record<string, ToolFn> },
  options: SanitizingCheckpointerOptions = {},
): Agent {
  const checkpointer = entry === "checkpointer" ? new SanitizingCheckpointer(saver, options) : saver;
  const middleware = entry === "middleware" ? [sanitizeMessagesMiddleware()] : [];
  const agent = buildAgent("createAgent", { ...parts, checkpointer, middleware });
  return entry === "sanitizeGraph" ? sanitizeGraph(agent, options) : agent;
}

export interface JourneyResult {
  /** The journey's button exists on this client. */
  offered: boolean;
  /** Every run after the Stop answered, and no model request rejected. */
  answered: boolean;
  /** The requests the model got after the Stop. */
  requests: BaseMessage[][];
  /** The provider's errors. */
  rejections: string[];
  /** The stopped turn's finished result, where the last request still holds its call. */
  finishedResult: string | undefined | "not in the request";
  /** What the page shows at the end. */
  view: WireMessage[];
}

export interface JourneyOptions {
  client: ClientName;
  journey: Journey;
  stop: Stop;
  entry: EntryPoint;
  profile: ProviderProfile;
  /** assistant-ui's Reload as its docs' `stream` callbacks send it: `{ messages: [] }`. */
  emptyReload?: boolean;
  /** The sanitizer's options, for sanitizeGraph and the checkpointer. */
  sanitizer?: SanitizingCheckpointerOptions;
  /** Another thread API than the in-process one (a server's, through the SDK). */
  thread?: (agent: Agent) => ThreadApi;
}

/** One user's journey: a finished turn, a turn stopped at `stop`, the journey's button, one more message. */
export async function runJourney(options: JourneyOptions): Promise<JourneyResult> {
  const { client, journey, stop, entry, profile } = options;
  // Stop is pressed from inside the run, after the page exists.
  const parts = journeyParts(profile, () => page.stop());
  const agent = agentThrough(entry, new MemorySaver(), parts, options.sanitizer);
  const graph = agent.graph as unknown as RunnableThreadGraph;
  const api = options.thread?.(agent) ?? inProcessThread(agent, graph, "thread", (resume) => new Command({ resume }));
  const page: FrontEnd = frontEnd(client, api, { emptyReload: options.emptyReload });
  const ends: (RunEnd | typeof NOT_OFFERED)[] = [];
  await expectEnd(page.send("Hello!"), "done");
  parts.arm(stop);
  await expectEnd(page.send(FIRST_QUESTION), "stopped");
  const seenBefore = parts.model.seen.length;
  const rejectedBefore = parts.model.rejections.length;
  switch (journey) {
    case "next message":
      break;
    case "regenerate":
      ends.push(await page.regenerate());
      break;
    case "edit the stopped turn":
      ends.push(await page.edit(0, "What is the weather in Lyon?"));
      break;
    case "edit an earlier turn":
      ends.push(await page.edit(1, "Good morning!"));
      break;
    case "reload":
      await page.reload();
      break;
    case "switch branch":
      ends.push(await page.edit(0, "What is the weather in Lyon?"));
      ends.push((await page.switchBranch()) ?? { ended: "done" });
      break;
    case "second stop": {
      parts.arm(stop);
      // Rejected before it could be stopped: the journey is not answered.
      const second = await page.send("And the weather in Rome?");
      if (second.ended === "done") throw new Error("the second turn was meant to be stopped");
      if (second.ended === "failed") ends.push(second);
      break;
    }
  }
  const offered = !ends.includes(NOT_OFFERED);
  if (offered) ends.push(await page.send(FOLLOW_UP));
  const requests = parts.model.seen.slice(seenBefore);
  const rejections = parts.model.rejections.slice(rejectedBefore).map((r) => r.message);
  const answered =
    offered && rejections.length === 0 && ends.every((end) => end !== NOT_OFFERED && end.ended === "done");
  return { offered, answered, requests, rejections, finishedResult: finishedResult(requests.at(-1)), view: page.view };
}

async function expectEnd(run: Promise<RunEnd>, expected: RunEnd["ended"]): Promise<void> {
  const end = await run;
  if (end.ended !== expected) {
    const error = end.ended === "failed" ? `: ${String(end.error)}` : "";
    throw new Error(`a run meant to end ${expected} ended ${end.ended}${error}`);
  }
}

/** What the request answers the stopped turn's `lookup` call with (its calls are the model's second call's). */
function finishedResult(request: BaseMessage[] | undefined): JourneyResult["finishedResult"] {
  const result = request?.find(
    (m) => m.type === "tool" && (m as { tool_call_id?: string }).tool_call_id === "call_1_1",
  );
  return result === undefined ? "not in the request" : text(result);
}
