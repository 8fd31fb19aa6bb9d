/**
 * A fake chat model as strict as a real provider: it rejects a history the
 * way the chosen provider does (see test/support/oracle/provider-rejections.ts), and otherwise replies
 * from a script, token by token, so a run can be cancelled mid-stream.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { providerError, requestEndError, type ProviderProfile } from "../oracle/provider-rejections.js";

/** What the model answers: text, and optionally tool calls. */
export interface ScriptedReply {
  content: string;
  /** The reply's message id; by default the reducer gives it a new one. */
  id?: string;
  toolCalls?: Array<{ name: string; args?: Record<string, unknown>; id?: string }>;
}

/** The error a strict model throws, with the provider's status and text. */
export class ProviderRejection extends Error {
  readonly status = 400;
  constructor(
    readonly profile: ProviderProfile,
    message: string,
  ) {
    super(`${profile} 400: ${message}`);
    this.name = "ProviderRejection";
  }
}

export interface StrictChatModelOptions {
  profile: ProviderProfile;
  /** Decides the reply from the history; called once per model call. */
  script: (messages: BaseMessage[], call: number) => ScriptedReply;
  /** Called before each streamed token (index from 0) with the call's signal: a test aborts here to cancel mid-stream. */
  onToken?: (index: number, call: number, signal: AbortSignal | undefined) => void;
  /** Called once a reply is complete (call index from 0): a test aborts here to cancel right after the LLM. */
  onReply?: (call: number) => void;
  /** Delay between tokens, in ms. Default 1. */
  tokenDelayMs?: number;
  /** As the newest models: a request that ends on a reply is rejected too (no assistant prefill). Default false. */
  rejectsPrefill?: boolean;
  /** Rejects what any of these rejects, as one request sent to each would be. Default `[profile]`. */
  judgedBy?: readonly ProviderProfile[];
  /** Where `seen` and `rejections` go: a log shared with code that cannot reach the instance (a server's). */
  log?: { seen: BaseMessage[][]; rejections: ProviderRejection[] };
}

/** Waits `ms`, or rejects as soon as `signal` aborts (and leaves no listener behind on `signal`). */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("Aborted"));
    const onAbort = () => (clearTimeout(timer), reject(signal!.reason ?? new Error("Aborted")));
    const timer = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * How tool calls get their ids when the script names none. By default `call_<call>_<index>`, counted per model: a
 * thread of several runs reuses them, as some providers' ids collide. `unique` numbers them by the tool-calling
 * replies already in the conversation, so every call id of a thread differs, as most providers' do; a test that
 * sets it puts it back when it ends.
 */
export const toolCallIds = { unique: false };

/** `_llmType()` of each provider's LangChain client. */
const LLM_TYPES: Record<ProviderProfile, string> = {
  anthropic: "anthropic",
  openai: "openai",
  bedrock: "chat_bedrock_converse",
  gemini: "googlegenerativeai",
  mistral: "mistral_ai",
};

export class StrictChatModel extends BaseChatModel<BaseChatModelCallOptions> {
  /** Every history the model accepted or rejected, in order. */
  readonly seen: BaseMessage[][];
  /** The rejections it threw. */
  readonly rejections: ProviderRejection[];
  private calls = 0;

  constructor(private readonly opts: StrictChatModelOptions) {
    super({});
    this.seen = opts.log?.seen ?? [];
    this.rejections = opts.log?.rejections ?? [];
  }

  // Called by the base constructor, before this class's fields exist. After it, the type of the real client of
  // the profile's provider, by which the middleware knows whose rules to apply.
  _llmType(): string {
    return this.opts === undefined ? "strict-fake" : LLM_TYPES[this.opts.profile];
  }

  /** What `createAgent` needs of a tool-calling model. The script decides the calls, so the tools are not used. */
  override bindTools(_tools: BindToolsInput[]): this {
    return this;
  }

  private check(messages: BaseMessage[]): number {
    this.seen.push(messages);
    let error: string | undefined;
    let by = this.opts.profile;
    for (const profile of this.opts.judgedBy ?? [this.opts.profile]) {
      error =
        providerError(profile, messages) ?? (this.opts.rejectsPrefill ? requestEndError(profile, messages) : undefined);
      by = profile;
      if (error) break;
    }
    if (error) {
      const rejection = new ProviderRejection(by, error);
      this.rejections.push(rejection);
      throw rejection;
    }
    return this.calls++;
  }

  private reply(
    messages: BaseMessage[],
    call: number,
  ): { id: string | undefined; tokens: string[]; toolCalls: NonNullable<ScriptedReply["toolCalls"]> } {
    const scripted = this.opts.script(messages, call);
    const turn = toolCallIds.unique
      ? messages.filter((m) => m.type === "ai" && ((m as AIMessage).tool_calls?.length ?? 0) > 0).length
      : call;
    const toolCalls = (scripted.toolCalls ?? []).map((tc, i) => ({ ...tc, id: tc.id ?? `call_${turn}_${i}` }));
    return { id: scripted.id, tokens: scripted.content.split(/(?<= )/).filter((t) => t !== ""), toolCalls };
  }

  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const call = this.check(messages);
    const { id, tokens, toolCalls } = this.reply(messages, call);
    for (let i = 0; i < tokens.length; i++) {
      this.opts.onToken?.(i, call, options.signal);
      await sleep(this.opts.tokenDelayMs ?? 1, options.signal);
    }
    this.opts.onReply?.(call);
    const message = new AIMessage({
      ...(id !== undefined ? { id } : {}),
      content: tokens.join(""),
      tool_calls: toolCalls.map((tc) => ({
        id: tc.id,
        name: tc.name,
        args: tc.args ?? {},
        type: "tool_call" as const,
      })),
    });
    return { generations: [{ text: message.text, message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const call = this.check(messages);
    const { id, tokens, toolCalls } = this.reply(messages, call);
    for (let i = 0; i < tokens.length; i++) {
      this.opts.onToken?.(i, call, options.signal);
      await sleep(this.opts.tokenDelayMs ?? 1, options.signal);
      const chunk = new ChatGenerationChunk({
        text: tokens[i]!,
        message: new AIMessageChunk({ ...(id !== undefined ? { id } : {}), content: tokens[i]! }),
      });
      await runManager?.handleLLMNewToken(tokens[i]!, undefined, undefined, undefined, undefined, { chunk });
      yield chunk;
    }
    this.opts.onReply?.(call);
    if (toolCalls.length > 0) {
      yield new ChatGenerationChunk({
        text: "",
        message: new AIMessageChunk({
          ...(id !== undefined ? { id } : {}),
          content: "",
          // After the text's block, as providers number them: a chunk merges into the block of its index.
          tool_call_chunks: toolCalls.map((tc, index) => ({
            id: tc.id,
            name: tc.name,
            args: JSON.stringify(tc.args ?? {}),
            index: tokens.length > 0 ? index + 1 : index,
            type: "tool_call_chunk" as const,
          })),
        }),
      });
    }
  }
}
