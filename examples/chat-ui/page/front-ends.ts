/**
 * What the chat front ends most LangGraph apps use send after Stop, ported line for line from their public source, so
 * this page (`?client=`) and the tests send exactly their requests:
 * - agent-chat-ui (`src/lib/ensure-tool-responses.ts` and the submit in `src/components/thread/index.tsx`, commit
 *   fdc87e6): for every AI message of its view whose next message is not a tool message, a stub for each of its calls;
 * - assistant-ui (`@assistant-ui/react-langgraph`, `autoCancelPendingToolCalls`, on by default): a stub for every call
 *   no later tool message answers; `sendMessage` gives every outgoing message a uuid;
 * - a frontend tool's result, as assistant-ui sends it (`onAddToolResult`): the ToolMessage alone, in a new run.
 * Messages are in the wire form the SDK sends (`type`, no classes).
 */
const randomUUID = () => globalThis.crypto.randomUUID();

/** A message of a client's view, in wire form. */
export interface ViewMessage {
  type: string;
  id?: string;
  content?: unknown;
  tool_calls?: { id?: string; name: string }[];
  tool_call_id?: string;
}

export type FrontEnd = "agent-chat-ui" | "assistant-ui";
export const FRONT_ENDS: readonly FrontEnd[] = ["agent-chat-ui", "assistant-ui"];

/**
 * How each sends a message: agent-chat-ui's `stream.submit` options (a resumable stream, so Stop only closes it and
 * the run goes on), assistant-ui's stream helper's (`onDisconnect: "cancel"`, so Stop cancels the run).
 */
export const SUBMIT_OPTIONS: Record<
  FrontEnd,
  {
    streamMode: ("values" | "messages" | "messages-tuple" | "updates" | "custom")[];
    streamSubgraphs?: boolean;
    streamResumable?: boolean;
    onDisconnect: "cancel" | "continue";
  }
> = {
  // As sent: `useStream` adds the modes its view reads, and derives `onDisconnect` for a resumable stream.
  "agent-chat-ui": {
    streamMode: ["values", "messages-tuple", "updates"],
    streamSubgraphs: true,
    streamResumable: true,
    onDisconnect: "continue",
  },
  "assistant-ui": { streamMode: ["messages", "updates", "custom"], onDisconnect: "cancel" },
};

/** agent-chat-ui's `ensureToolCallsHaveResponses`: only the very next message counts, whatever call it answers. */
export function agentChatUiStubs(view: readonly ViewMessage[]) {
  return view.flatMap((message, index) => {
    if (message.type !== "ai" || message.tool_calls?.length === 0) return [];
    if (view[index + 1]?.type === "tool") return [];
    return (message.tool_calls ?? []).map((tc) => ({
      type: "tool",
      tool_call_id: tc.id ?? "",
      id: `do-not-render-${randomUUID()}`,
      name: tc.name,
      content: "Successfully handled tool call.",
    }));
  });
}

/** assistant-ui's `getPendingToolCalls`: calls of any AI message that no later tool message answers. */
export function assistantUiStubs(view: readonly ViewMessage[]) {
  const pending = new Map<string, { id: string; name: string }>();
  for (const message of view) {
    if (message.type === "ai")
      for (const tc of message.tool_calls ?? []) pending.set(tc.id ?? "", { ...tc, id: tc.id ?? "" });
    if (message.type === "tool") pending.delete(message.tool_call_id ?? "");
  }
  return [...pending.values()].map((t) => ({
    type: "tool",
    name: t.name,
    tool_call_id: t.id,
    content: JSON.stringify({ cancelled: true }),
    status: "error",
  }));
}

/** The `messages` input `client` sends when the user types `text` after Stop, given the view it holds. */
export function nextInput(client: FrontEnd, view: readonly ViewMessage[], text: string) {
  if (client === "agent-chat-ui") {
    const human = { id: randomUUID(), type: "human", content: [{ type: "text", text }] };
    return { messages: [...agentChatUiStubs(view), human] };
  }
  // `sendMessage` adds a uuid to every message without one; the human message has assistant-ui's 7-character id.
  const human = { id: randomUUID().slice(0, 7), type: "human", content: text };
  return { messages: [...assistantUiStubs(view), human].map((m) => ("id" in m ? m : { ...m, id: randomUUID() })) };
}

/** A frontend tool's result, as assistant-ui sends it: the ToolMessage alone, as a new run's input. */
export const frontendToolResult = (toolCallId: string, name: string, result: unknown) => ({
  messages: [
    {
      type: "tool",
      name,
      tool_call_id: toolCallId,
      content: JSON.stringify(result),
      status: "success",
      id: randomUUID(),
    },
  ],
});

/** Both lists hold the same messages, by id, in order (assistant-ui's `matchesParentMessages`). */
export const sameIds = (a: readonly ViewMessage[], b: readonly ViewMessage[]) =>
  a.length === b.length && a.every((m, i) => m.id !== undefined && m.id === b[i]!.id);

/** The user turn a reply answers: the messages up to it. */
export function upToUserTurn(view: readonly ViewMessage[], reply: number): ViewMessage[] {
  let user = reply - 1;
  while (user >= 0 && view[user]!.type !== "human") user--;
  return view.slice(0, user + 1);
}

/** A checkpoint as `getHistory` returns it. */
interface HistoryState {
  values: unknown;
  checkpoint: { checkpoint_id?: string | null };
}

/** A checkpoint as the SDK takes it: agent-chat-ui sends `parent_checkpoint` as it got it. */
type CheckpointRef = { checkpoint_id?: string | null };

/**
 * What `client` sends to regenerate the reply at `view[index]`, or to edit the user turn there to `text`: the input,
 * and the checkpoint it forks from. agent-chat-ui: no input or the text (no id), from `parent`, the parent of the
 * message's first-seen checkpoint (`getMessagesMetadata`). assistant-ui: `null` or the text (a new id), from the
 * newest of the ten newest checkpoints whose message ids are those up to the user's turn, or those before the edit
 * (the docs' `getCheckpointId`); none found, none sent.
 */
export async function reforkInput(
  client: FrontEnd,
  request: {
    view: readonly ViewMessage[];
    index: number;
    text?: string;
    parent?: CheckpointRef | null;
    history(limit: number): Promise<HistoryState[]>;
  },
): Promise<{ input: unknown; checkpoint?: CheckpointRef }> {
  const { view, index, text } = request;
  if (client === "agent-chat-ui") {
    const checkpoint = request.parent ?? undefined;
    return { input: text === undefined ? undefined : { messages: [{ type: "human", content: text }] }, checkpoint };
  }
  const before = text === undefined ? upToUserTurn(view, index) : view.slice(0, index);
  const states = await request.history(10);
  const match = states.find((state) => sameIds((state.values as { messages?: ViewMessage[] }).messages ?? [], before));
  const checkpoint = match && { checkpoint_id: match.checkpoint.checkpoint_id };
  const human = { id: randomUUID().slice(0, 7), type: "human", content: text };
  return { input: text === undefined ? null : { messages: [human] }, checkpoint };
}
