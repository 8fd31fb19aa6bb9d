/// <reference lib="dom" />
/**
 * The chat: `useStream` from `@langchain/langgraph-sdk/react` against the server that serves this page. The
 * assistant comes from `?assistant=`, the thread from `?thread=` (written there when the first message creates
 * it, so a reload keeps the conversation). `?client=agent-chat-ui` or `?client=assistant-ui` sends what those front
 * ends send (front-ends.ts): after Stop, their own answers to the stopped calls before the next message.
 */
import type { Message } from "@langchain/langgraph-sdk";
import { useStream } from "@langchain/langgraph-sdk/react";
import { useRef, useState, type FormEvent } from "react";
import { isSyntheticMessage } from "langgraph-checkpoint-sanitizer/client";
import { FRONT_ENDS, SUBMIT_OPTIONS, nextInput, reforkInput } from "./front-ends.js";

const ASSISTANTS: Record<string, string> = {
  agent: "The example agent, through sanitizeGraph. Press Stop while it searches, then type again.",
  "agent-raw": "The same agent, raw: after Stop, the next message fails with the provider's error.",
  approval: "An agent that asks before it sends an email (interrupt()), through sanitizeGraph.",
  "approval-raw": "The same approval agent, raw.",
};

interface State extends Record<string, unknown> {
  messages: Message[];
}

/** What the approval agent's `interrupt()` asks. */
interface Approval {
  message: string;
  to: string;
  subject: string;
  body: string;
}

const params = new URLSearchParams(window.location.search);
const requested = params.get("assistant") ?? "agent";
const assistantId = Object.hasOwn(ASSISTANTS, requested) ? requested : "agent";
const frontEnd = FRONT_ENDS.find((name) => name === params.get("client"));
/** agent-chat-ui hides the answers it adds to stopped calls. */
const shown = (message: Message) => !(frontEnd === "agent-chat-ui" && message.id?.startsWith("do-not-render-"));

function keepInUrl(name: string, value: string) {
  const url = new URL(window.location.href);
  url.searchParams.set(name, value);
  window.history.replaceState(null, "", url);
}

function textOf(content: Message["content"]): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : JSON.stringify(error);
}

/** What a person may do to a message: the buttons the chosen front end shows on it. */
interface MessageActions {
  regenerate?: () => void;
  edit?: (text: string) => void;
}

function MessageItem({ message, actions }: { message: Message; actions: MessageActions }) {
  const [editing, setEditing] = useState<string | null>(null);
  const synthetic = isSyntheticMessage(message);
  const by = synthetic ? " · inserted by the sanitizer" : "";
  const who =
    message.type === "human"
      ? "You"
      : message.type === "tool"
        ? `Result of ${message.name ?? "tool"}${by}`
        : `Assistant${by}`;
  const text = textOf(message.content);
  return (
    <li className={`message ${message.type}${synthetic ? " synthetic" : ""}`} data-testid="message">
      <span className="who">{who}</span>
      {editing === null ? (
        text && <p className="text">{text}</p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            actions.edit?.(editing);
            setEditing(null);
          }}
        >
          <input aria-label="Edited message" value={editing} onChange={(event) => setEditing(event.target.value)} />
          <button type="submit">Save</button>
        </form>
      )}
      {message.type === "ai" &&
        message.tool_calls?.map((call) => (
          <div className="call" key={call.id ?? call.name}>
            calls {call.name}({JSON.stringify(call.args)})
          </div>
        ))}
      {actions.regenerate && (
        <button type="button" onClick={actions.regenerate}>
          Regenerate
        </button>
      )}
      {actions.edit && editing === null && (
        <button type="button" onClick={() => setEditing(text)}>
          Edit
        </button>
      )}
    </li>
  );
}

export function Chat() {
  const [threadId, setThreadId] = useState<string | null>(() => params.get("thread"));
  const [draft, setDraft] = useState("");
  const [activity, setActivity] = useState("");
  const stream = useStream<State>({
    apiUrl: window.location.origin,
    assistantId,
    threadId,
    // agent-chat-ui's: its view after a run comes from the thread's history.
    fetchStateHistory: frontEnd === "agent-chat-ui",
    onThreadId: (id) => {
      setThreadId(id);
      keepInUrl("thread", id);
    },
    // Each step's output as it ends: once the model's step has asked for tools, they run.
    onUpdateEvent: (update) => {
      for (const output of Object.values(update ?? {})) {
        const last = (output as Partial<State> | null)?.messages?.at(-1);
        const calls = last?.type === "ai" ? (last.tool_calls ?? []) : [];
        setActivity(calls.length ? `Running ${calls.map((call) => call.name).join(", ")}…` : "");
      }
    },
  });

  const messages = stream.messages;
  // assistant-ui's Stop only aborts, so it keeps the messages it streamed; useStream's reads the thread back, which
  // already answers the stopped calls. Its stubs come from the streamed view, whenever the next message is typed.
  const streamedView = useRef<Message[] | null>(null);
  function stop() {
    if (frontEnd === "assistant-ui") streamedView.current = stream.messages;
    void stream.stop();
  }
  // A static breakpoint reads as an interrupt without a value; only the approval agent's question has one.
  const approval = stream.interrupt?.value as Approval | undefined;

  function send(event: FormEvent) {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setDraft("");
    setActivity("");
    const input = frontEnd
      ? nextInput(frontEnd, streamedView.current ?? stream.messages, text)
      : { messages: [{ type: "human", content: text }] };
    streamedView.current = null;
    void stream.submit(input as { messages: Message[] }, {
      // Closing the page or losing the connection cancels the run on the server, as Stop does.
      ...(frontEnd ? SUBMIT_OPTIONS[frontEnd] : { onDisconnect: "cancel" }),
      optimisticValues: (prev) => ({ ...prev, messages: [...(prev.messages ?? []), ...(input.messages as Message[])] }),
    });
  }

  /**
   * Regenerate and Edit as the front end sends them (front-ends.ts): agent-chat-ui from the parent of the message's
   * first-seen checkpoint, assistant-ui from the newest checkpoint whose message ids are the ones before it.
   */
  async function refork(message: Message, text?: string) {
    if (frontEnd === undefined || threadId === null) return;
    const index = messages.indexOf(message);
    const parent = stream.getMessagesMetadata(message, index)?.firstSeenState?.parent_checkpoint ?? undefined;
    const { input, checkpoint } = await reforkInput(frontEnd, {
      view: messages,
      index,
      text,
      parent,
      history: (limit) => stream.client.threads.getHistory(threadId, { limit }),
    });
    setActivity("");
    // assistant-ui sends the checkpoint's id alone, which the SDK's type asks more of.
    void stream.submit(input as { messages: Message[] }, {
      ...SUBMIT_OPTIONS[frontEnd],
      checkpoint: checkpoint as never,
    });
  }
  const lastReply = messages.filter((m) => m.type === "ai").at(-1);
  const actionsOf = (message: Message): MessageActions =>
    frontEnd === undefined || stream.isLoading
      ? {}
      : message.type === "human"
        ? { edit: (text) => void refork(message, text) }
        : message === lastReply
          ? { regenerate: () => void refork(message) }
          : {};

  function resume(action: "approve" | "reject") {
    setActivity("");
    void stream.submit(undefined, { command: { resume: { action } }, onDisconnect: "cancel" });
  }

  return (
    <>
      <header>
        <h1>Chat</h1>
        <nav aria-label="Assistants">
          {Object.keys(ASSISTANTS).map((id) => (
            <a key={id} href={`?assistant=${id}`} aria-current={id === assistantId ? "page" : undefined}>
              {id}
            </a>
          ))}
        </nav>
      </header>
      <p className="hint">
        {ASSISTANTS[assistantId]} A link above starts a new thread.
        {threadId && <> Thread {threadId}.</>}
      </p>
      <ol className="messages" aria-label="Messages">
        {messages.filter(shown).map((message, index) => (
          <MessageItem key={message.id ?? index} message={message} actions={actionsOf(message)} />
        ))}
      </ol>
      {stream.error != null && (
        <div role="alert" className="error">
          {describeError(stream.error)}
        </div>
      )}
      {approval?.message && !stream.isLoading && (
        <div className="approval" role="group" aria-label="Approval">
          <p className="text">
            {approval.message} To {approval.to}: “{approval.subject}”, {approval.body}
          </p>
          <button type="button" onClick={() => resume("approve")}>
            Approve
          </button>
          <button type="button" onClick={() => resume("reject")}>
            Reject
          </button>
        </div>
      )}
      <p className="status" role="status">
        {stream.isThreadLoading ? "Loading the thread…" : stream.isLoading ? activity || "Working…" : ""}
      </p>
      <form onSubmit={send}>
        <input
          aria-label="Message"
          placeholder="Ask something, e.g. Weather in Paris?"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" disabled={stream.isLoading}>
          Send
        </button>
        <button type="button" onClick={stop} disabled={!stream.isLoading}>
          Stop
        </button>
      </form>
    </>
  );
}
