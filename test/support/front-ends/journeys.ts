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
import { TWO_CALLS, plainReply } from "../graphs/agent-model.js";
import { hangUntilAborted, type ToolFn } from "../graphs/react-graph.js";
import {
  sleep,
  StrictChatModel,
  type ProviderRejection,
  type StrictChatModelOptions,
} from "../graphs/strict-chat-model.js";
import type { ProviderProfile } from "../oracle/provider-rejections.js";
import { FIRST_QUESTION, NOT_OFFERED, frontEnd, type ClientName, type FrontEnd } from "./clients.js";
import { inProcessThread, type RunEnd, type RunnableThreadGraph, type WireMessage } from "./thread-api.js";

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

/**
 * Where the running turn stops: armed for one stop, it presses `onStop` at the model's second token (mid-text) or
 * once `lookup` finished and `search` started (mid-tool). One object per journey, or one a server's graphs share
 * with the test (see `sharedStopSwitch`).
 */
export class StopSwitch {
  armed: Stop | undefined;
  onStop: () => void = () => {};
  /** After `lookup` returned, for its writes to land before `search` stops the run. */
  settleMs = 5;
  /** A stopped `search` the run goes on with (a server that lets it: `onDisconnect: "continue"`) returns after this. */
  goesOnMs = 200;
  private lookupDone = () => {};
  private lookupFinished = Promise.resolve();

  arm(stop: Stop): void {
    this.armed = stop;
    this.lookupFinished = new Promise((resolve) => (this.lookupDone = resolve));
  }

  press(): void {
    this.armed = undefined;
    this.onStop();
  }

  /** The tools of the journeys' agent. */
  readonly tools: Record<string, ToolFn> = {
    search: async (_args, config) => {
      if (this.armed !== "mid-tool") return "Paris: 15°C";
      await this.lookupFinished;
      this.press();
      await Promise.race([hangUntilAborted(config.signal), sleep(this.goesOnMs, config.signal)]);
      return "Paris: 15°C";
    },
    lookup: async () => {
      setTimeout(this.lookupDone, this.settleMs);
      return LOOKUP_RESULT;
    },
  };
}

/** What the Agent Server's graphs (in this process) share with the test that drives them through the SDK. */
export interface SharedJourney {
  stops: StopSwitch;
  log: { seen: BaseMessage[][]; rejections: ProviderRejection[] };
}

/** The global holding the journeys by key; the test that starts the server deletes it when it ends. */
export const SHARED_JOURNEYS = Symbol.for("langgraph-checkpoint-sanitizer.test.journeys");

/**
 * One per key and process, whichever module copy asks first (the server imports the graphs apart from the test): a
 * client's journeys on their own graphs, so that several clients' run at once.
 */
export function sharedJourney(key: string): SharedJourney {
  const holder = globalThis as { [SHARED_JOURNEYS]?: Map<string, SharedJourney> };
  const shared = (holder[SHARED_JOURNEYS] ??= new Map());
  let journey = shared.get(key);
  if (journey === undefined)
    shared.set(key, (journey = { stops: new StopSwitch(), log: { seen: [], rejections: [] } }));
  return journey;
}

/** The journeys' strict model: two parallel calls for a question about the weather, a plain answer otherwise. */
export function journeyModel(
  profile: ProviderProfile,
  stops: StopSwitch,
  options: Pick<StrictChatModelOptions, "judgedBy" | "log"> = {},
) {
  return new StrictChatModel({
    profile,
    rejectsPrefill: true,
    ...options,
    script: (messages) => {
      const last = messages.at(-1)!;
      return asksWeather(last) ? TWO_CALLS : plainReply(last);
    },
    onToken: (index) => {
      if (stops.armed === "mid-text" && index === 1) stops.press();
    },
  });
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
}

/** One user's journey: a finished turn, a turn stopped at `stop`, the journey's button, one more message. */
export async function runJourney(options: JourneyOptions): Promise<JourneyResult> {
  const { client, entry, profile } = options;
  const stops = new StopSwitch();
  const model = journeyModel(profile, stops);
  const agent = agentThrough(entry, new MemorySaver(), { model, tools: stops.tools }, options.sanitizer);
  const graph = agent.graph as unknown as RunnableThreadGraph;
  const api = inProcessThread(agent, graph, "thread", (resume) => new Command({ resume }));
  const page = frontEnd(client, api, { emptyReload: options.emptyReload });
  stops.onStop = () => page.stop();
  return journeyOf(page, stops, model, options);
}

/** The journey on `page`, whose model is `model` and whose turns `stops` stops, wherever they run. */
export async function journeyOf(
  page: FrontEnd,
  stops: StopSwitch,
  model: Pick<StrictChatModel, "seen" | "rejections">,
  { journey, stop }: Pick<JourneyOptions, "journey" | "stop">,
  /** Until a run the first Stop let go on has ended (a server's), so that only the second turn is stopped. */
  settled: () => Promise<void> = async () => {},
): Promise<JourneyResult> {
  const ends: (RunEnd | typeof NOT_OFFERED)[] = [];
  await expectEnd(page.send("Hello!"), "done");
  stops.arm(stop);
  await expectEnd(page.send(FIRST_QUESTION), "stopped");
  const seenBefore = model.seen.length;
  const rejectedBefore = model.rejections.length;
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
      await settled();
      stops.arm(stop);
      // Rejected before it could be stopped: the journey is not answered.
      const second = await page.send("And the weather in Rome?");
      if (second.ended === "done") throw new Error("the second turn was meant to be stopped");
      if (second.ended === "failed") ends.push(second);
      break;
    }
  }
  const offered = !ends.includes(NOT_OFFERED);
  if (offered) ends.push(await page.send(FOLLOW_UP));
  const requests = model.seen.slice(seenBefore);
  const rejections = model.rejections.slice(rejectedBefore).map((r) => r.message);
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
