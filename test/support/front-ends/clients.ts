/**
 * The chat front ends LangGraph apps run, each as its own source sends requests (read from the published packages):
 * what every button sends, with which checkpoint, and what the client shows after Stop. Written against
 * {@link ThreadApi}, so the same recipe runs in process and against the Agent Server.
 *
 * - agent-chat-ui (commit fdc87e6) on `useStream` of `@langchain/langgraph-sdk` 1.15.0: Stop aborts the stream and
 *   re-reads `getHistory({ limit: 10 })`, whose newest state the view becomes; the next message carries stubs for the
 *   calls of each AI message whose next message is not a tool message; Regenerate re-runs from the parent of the
 *   reply's first-seen state with no input; Edit sends the new text (no id) from the parent of the message's
 *   first-seen state; a branch switch sends the next message from the head of the branch shown.
 * - assistant-ui's `@assistant-ui/react-langgraph` 0.14.26 (`unstable_createLangGraphStream` with the docs'
 *   `getCheckpointId`): Stop drops the stream, which the server cancels on (`onDisconnect: "cancel"`), and the view
 *   keeps what streamed; the next message carries `{"cancelled":true}` stubs for every call no later result answers
 *   (7-character ids); Reload sends `null` from the newest of the ten newest states whose message ids are the view's
 *   up to the user message (`{ messages: [] }` through the docs' own `stream` callbacks); Edit sends the text with a
 *   new id from the state whose ids are the view's before it.
 * - assistant-ui's `@assistant-ui/react-langchain` 0.0.28, on `@langchain/react` 1.1.0 (SDK 1.11.0, the thread
 *   protocol): Stop is `runs.cancel`; stubs with UUIDv7 ids; Reload forks from the reply's recorded parent checkpoint,
 *   Edit from the state whose ids are the view's up to the message before (paging the history 100 at a time).
 * - `@langchain/react` 1.1.0's `useStream`: Stop is `runs.cancel`; no stubs; Regenerate and Edit `submit` with
 *   `forkFrom` the message's recorded parent checkpoint, which SDK 1.11.0 overwrites with the parent of the newest
 *   values event that holds it; a branch switch is the client's own.
 * - CopilotKit 1.75 through `@ag-ui/langgraph` 0.0.43: every run reads the state and sends its messages back with the
 *   client's messages the state lacks; Stop is `runs.cancel`, after which the transcript is the state's messages;
 *   Regenerate (`reloadMessages`) sends the state's messages alone; an edited message goes out with a new id.
 */
import {
  agentChatUiStubs,
  assistantUiStubs,
  sameIds,
  upToUserTurn,
} from "../../../examples/chat-ui/page/front-ends.js";
import { FIRST_QUESTION } from "../graphs/agent-model.js";
import type { RunEnd, Snapshot, StreamEvent, StreamMode, ThreadApi, WireMessage } from "./thread-api.js";

export const CLIENTS = [
  "agent-chat-ui",
  "assistant-ui (react-langgraph)",
  "assistant-ui (react-langchain)",
  "@langchain/react",
  "CopilotKit (AG-UI)",
] as const;
export type ClientName = (typeof CLIENTS)[number];

/** A journey step a client does not offer. */
export const NOT_OFFERED = "not offered" as const;

const uuid = () => globalThis.crypto.randomUUID();
/** assistant-ui's `generateId`: 7 characters of [0-9A-Za-z]. */
const nanoid = () => uuid().replace(/-/g, "").slice(0, 7);
const ids = (messages: readonly WireMessage[]) => messages.map((m) => m.id);

/** Messages known from token chunks only: a partial reply the store may never get. */
const streamedOnly = new WeakSet<WireMessage>();

/**
 * What a client that keeps streamed messages shows: a values event replaces the list, keeping partial replies it
 * does not hold; updates and token chunks add or replace messages by id (chunks add to the text).
 */
function streamed(view: readonly WireMessage[], event: StreamEvent): WireMessage[] {
  if (event.mode === "values") {
    const held = new Set(ids(event.messages));
    return [...event.messages, ...view.filter((m) => streamedOnly.has(m) && !held.has(m.id))];
  }
  const out = [...view];
  for (const message of event.mode === "messages" ? [event.chunk] : event.messages) {
    const at = out.findIndex((m) => m.id !== undefined && m.id === message.id);
    if (event.mode !== "messages") {
      if (at < 0) out.push(message);
      else out[at] = message;
      continue;
    }
    const previous = at < 0 ? undefined : out[at]!;
    if (previous !== undefined && !streamedOnly.has(previous)) continue;
    const text = `${previous === undefined ? "" : String(previous.content)}${String(message.content)}`;
    const chunk = { ...message, content: text };
    streamedOnly.add(chunk);
    if (at < 0) out.push(chunk);
    else out[at] = chunk;
  }
  return out;
}

/** What every client does; the journeys call these. */
export interface FrontEnd {
  readonly name: ClientName;
  /** What the page shows. */
  view: WireMessage[];
  send(text: string): Promise<RunEnd>;
  /** Pressed while the run works (from inside it). */
  stop(): void;
  regenerate(): Promise<RunEnd | typeof NOT_OFFERED>;
  /** Edits the user turn `which` (from the newest) to `text`. */
  edit(which: number, text: string): Promise<RunEnd | typeof NOT_OFFERED>;
  /** Shows the branch before the last fork again: what the next message goes out from. */
  switchBranch(): Promise<void | typeof NOT_OFFERED>;
  /** The page is reloaded: the client reads the thread again. */
  reload(): Promise<void>;
}

/** The user turns of `view`, newest first. */
const humans = (view: readonly WireMessage[]) => view.filter((m) => m.type === "human").reverse();
const lastReply = (view: readonly WireMessage[]) => view.filter((m) => m.type === "ai").at(-1);

/** agent-chat-ui on SDK 1.15.0's `useStream`. */
class AgentChatUi implements FrontEnd {
  readonly name = "agent-chat-ui";
  view: WireMessage[] = [];
  private history: Snapshot[] = [];
  /** A branch the user switched to: the next message goes out from its head. */
  private branchHead: string | undefined;
  private forkedFrom: { head: string; view: WireMessage[] } | undefined;

  constructor(private readonly api: ThreadApi) {}

  private async runAndRead(input: unknown, checkpointId?: string): Promise<RunEnd> {
    const end = await this.api.run(input, {
      checkpointId,
      streamMode: ["values", "messages"],
      onEvent: (event) => {
        if (event.mode === "values") this.view = event.messages;
      },
    });
    // After a run, and on Stop: `getHistory({ limit: 10 })`, whose newest state the view becomes.
    this.history = await this.api.history(10);
    this.view = this.history[0]?.messages ?? [];
    return end;
  }

  /** `getMessagesMetadata(message).firstSeenState.parent_checkpoint`: the oldest fetched state holding it. */
  private parentOfFirstSeen(message: WireMessage): string | undefined {
    const seen = this.history.filter((state) => ids(state.messages).includes(message.id));
    return seen.at(-1)?.parentCheckpointId;
  }

  send(text: string) {
    const human = { id: uuid(), type: "human", content: [{ type: "text", text }] };
    const checkpoint = this.branchHead;
    this.branchHead = undefined;
    return this.runAndRead({ messages: [...agentChatUiStubs(this.view), human] }, checkpoint);
  }

  stop() {
    this.api.stop();
  }

  async regenerate() {
    const reply = lastReply(this.view);
    if (reply === undefined) return NOT_OFFERED;
    return this.runAndRead(undefined, this.parentOfFirstSeen(reply));
  }

  async edit(which: number, text: string) {
    const message = humans(this.view)[which];
    if (message === undefined) return NOT_OFFERED;
    this.forkedFrom = { head: this.history[0]!.checkpointId, view: this.view };
    return this.runAndRead({ messages: [{ type: "human", content: text }] }, this.parentOfFirstSeen(message));
  }

  async switchBranch() {
    if (this.forkedFrom === undefined) return NOT_OFFERED;
    this.branchHead = this.forkedFrom.head;
    this.view = this.forkedFrom.view;
  }

  async reload() {
    this.history = await this.api.history(10);
    this.view = this.history[0]?.messages ?? [];
  }
}

/** assistant-ui's runtimes: the view keeps what streamed. */
abstract class AssistantUi implements FrontEnd {
  abstract readonly name: ClientName;
  view: WireMessage[] = [];

  constructor(protected readonly api: ThreadApi) {}

  protected abstract stubIds(stub: WireMessage): WireMessage;
  protected abstract humanMessage(text: string): WireMessage;
  /**
   * The checkpoint to fork from so the thread holds `before` and then what is sent: `undefined` sends none (the
   * thread's latest), `null` sends no request at all.
   */
  protected abstract checkpointHolding(
    before: WireMessage[],
    replaced?: WireMessage,
  ): Promise<string | undefined | null>;
  protected abstract readonly reloadInput: unknown;

  protected run(input: unknown, checkpointId?: string): Promise<RunEnd> {
    return this.api.run(input, {
      checkpointId,
      streamMode: this.streamMode,
      onEvent: (event) => (this.view = streamed(this.view, event)),
    });
  }

  protected abstract readonly streamMode: readonly StreamMode[];

  send(text: string) {
    const stubs = assistantUiStubs(this.view).map((stub) => this.stubIds(stub));
    const human = this.humanMessage(text);
    this.view = [...this.view, ...stubs, human];
    return this.run({ messages: [...stubs, human] });
  }

  stop() {
    this.api.stop();
  }

  async regenerate() {
    const reply = lastReply(this.view);
    if (reply === undefined) return NOT_OFFERED;
    const truncated = upToUserTurn(this.view, this.view.indexOf(reply)) as WireMessage[];
    const checkpoint = await this.checkpointHolding(truncated, reply);
    if (checkpoint === null) return NOT_OFFERED;
    this.view = truncated;
    return this.run(this.reloadInput, checkpoint);
  }

  async edit(which: number, text: string) {
    const message = humans(this.view)[which];
    if (message === undefined) return NOT_OFFERED;
    const before = this.view.slice(0, this.view.indexOf(message));
    const checkpoint = await this.checkpointHolding(before);
    if (checkpoint === null) return NOT_OFFERED;
    const human = this.editedMessage(text);
    this.view = [...before, human];
    return this.run({ messages: [human] }, checkpoint);
  }

  protected editedMessage(text: string): WireMessage {
    return this.humanMessage(text);
  }

  async switchBranch(): Promise<void | typeof NOT_OFFERED> {
    return NOT_OFFERED;
  }

  async reload() {
    // `load`: the thread's state.
    this.view = (await this.api.state()).messages;
  }
}

/** `@assistant-ui/react-langgraph` through `unstable_createLangGraphStream` and the docs' `getCheckpointId`. */
class AssistantUiLangGraph extends AssistantUi {
  readonly name = "assistant-ui (react-langgraph)";
  protected readonly streamMode = ["messages", "updates"] as const;
  protected readonly reloadInput: unknown;

  /** `emptyInput`: `{ messages: [] }`, as the docs' own `stream` callbacks send a Reload; `null` as the package's. */
  constructor(api: ThreadApi, emptyInput = false) {
    super(api);
    this.reloadInput = emptyInput ? { messages: [] } : null;
  }

  protected stubIds(stub: WireMessage) {
    return { ...stub, id: nanoid() };
  }

  protected humanMessage(text: string) {
    return { id: nanoid(), type: "human", content: text };
  }

  /** The newest of the ten newest states whose message ids are exactly those of `before`; none: no checkpoint sent. */
  protected async checkpointHolding(before: WireMessage[]) {
    const match = (await this.api.history(10)).find((state) => sameIds(state.messages, before));
    return match?.checkpointId;
  }
}

/** `@assistant-ui/react-langchain`'s `useStreamRuntime`, on `@langchain/react`. */
class AssistantUiLangChain extends AssistantUi {
  readonly name: ClientName = "assistant-ui (react-langchain)";
  protected readonly streamMode = ["values", "messages"] as const;
  protected readonly reloadInput = null;
  /** The parent of the newest values event's checkpoint, recorded for each message it held (SDK 1.11.0). */
  protected parents = new Map<string | undefined, string | undefined>();

  protected override async run(input: unknown, checkpointId?: string) {
    const end = await super.run(input, checkpointId);
    const head = await this.api.state();
    for (const message of head.messages) this.parents.set(message.id, head.parentCheckpointId);
    return end;
  }

  protected stubIds(stub: WireMessage) {
    return { ...stub, id: uuid() };
  }

  protected humanMessage(text: string) {
    return { id: nanoid(), type: "human", content: text };
  }

  protected override editedMessage(text: string) {
    return { type: "human", content: text, id: uuid() };
  }

  /** `resolveForkCheckpoint`: the reply's recorded parent when it is the last message, else the history (100 a page). */
  protected async checkpointHolding(before: WireMessage[], replaced?: WireMessage) {
    if (replaced !== undefined && this.view.at(-1) === replaced && this.parents.has(replaced.id))
      return this.parents.get(replaced.id);
    const match = (await this.api.history(100)).find((state) => sameIds(state.messages, before));
    return match?.checkpointId ?? null;
  }
}

/** `@langchain/react` 1.1.0's `useStream`: `submit` with `forkFrom`, no stubs. */
class LangChainReact extends AssistantUiLangChain {
  override readonly name = "@langchain/react";
  private forked: WireMessage[] | undefined;

  override send(text: string) {
    const human = { type: "human", content: text, id: uuid() };
    this.view = [...(this.forked ?? this.view), human];
    this.forked = undefined;
    return this.run({ messages: [human] });
  }

  /** `submit(undefined, { forkFrom: parentCheckpointId })`. */
  override async regenerate() {
    const reply = lastReply(this.view);
    if (reply === undefined) return NOT_OFFERED;
    return this.run(undefined, this.parents.get(reply.id));
  }

  /** `submit({ messages: [new HumanMessage(text)] }, { forkFrom: parentCheckpointId })`. */
  override async edit(which: number, text: string) {
    const message = humans(this.view)[which];
    if (message === undefined) return NOT_OFFERED;
    this.forked = this.view;
    return this.run({ messages: [{ type: "human", content: text, id: uuid() }] }, this.parents.get(message.id));
  }

  /** Client-side only: the view changes, the next message goes to the thread as usual. */
  override async switchBranch() {
    if (this.forked === undefined) return NOT_OFFERED;
  }
}

/** CopilotKit through `@ag-ui/langgraph`'s `LangGraphAgent`. */
class CopilotKit implements FrontEnd {
  readonly name = "CopilotKit (AG-UI)";
  view: WireMessage[] = [];

  constructor(private readonly api: ThreadApi) {}

  /** `prepareStream`: the state's messages, then the client's messages whose ids it lacks. */
  private async run(transcript: WireMessage[]): Promise<RunEnd> {
    const state = await this.api.state();
    const known = new Set(ids(state.messages));
    const input = { messages: [...state.messages, ...transcript.filter((m) => !known.has(m.id))] };
    const end = await this.api.run(input, {
      streamMode: ["values", "updates", "messages"],
      onEvent: (event) => (this.view = streamed(this.view, event)),
    });
    // MESSAGES_SNAPSHOT: after the run (or the cancel), the state's messages.
    this.view = (await this.api.state()).messages;
    return end;
  }

  send(text: string) {
    return this.run([...this.view, { id: uuid(), type: "human", content: text }]);
  }

  stop() {
    this.api.stop();
  }

  /** `reloadMessages`: the transcript without its last reply, every id known, so only the state goes out. */
  async regenerate() {
    const reply = lastReply(this.view);
    if (reply === undefined) return NOT_OFFERED;
    return this.run(this.view.slice(0, this.view.indexOf(reply)));
  }

  /** The app's edit handler: the edited text as a new message. */
  async edit(which: number, text: string) {
    if (humans(this.view)[which] === undefined) return NOT_OFFERED;
    return this.run([...this.view, { id: uuid(), type: "human", content: text }]);
  }

  async switchBranch() {
    return NOT_OFFERED;
  }

  async reload() {
    this.view = (await this.api.state()).messages;
  }
}

export function frontEnd(name: ClientName, api: ThreadApi, options: { emptyReload?: boolean } = {}): FrontEnd {
  switch (name) {
    case "agent-chat-ui":
      return new AgentChatUi(api);
    case "assistant-ui (react-langgraph)":
      return new AssistantUiLangGraph(api, options.emptyReload);
    case "assistant-ui (react-langchain)":
      return new AssistantUiLangChain(api);
    case "@langchain/react":
      return new LangChainReact(api);
    case "CopilotKit (AG-UI)":
      return new CopilotKit(api);
  }
}

export { FIRST_QUESTION };
