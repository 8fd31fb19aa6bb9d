import type { BaseMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { policyFor, resolveRepairOptions, type SharedRepairOptions } from "../options.js";
import type { Repair } from "../repair/patterns.js";
import type { ProviderRules } from "../repair/provider-rules.js";
import { repairWith } from "../repair/repair-messages.js";
import { withRules } from "../repair/settings.js";
import { ReadTelemetry } from "../telemetry/read-telemetry.js";
import { modelNameOf, providerOfModel, storeOfModel } from "./model-provider.js";
import { traceRequestRepair } from "./repair-run.js";

/** Reported through `onRepair` for each model request the middleware repaired. */
export interface ModelRequestRepairEvent {
  operation: "wrapModelCall";
  /** `configurable.thread_id` of the run, when it has one. */
  threadId: string | undefined;
  /** Always `"request"`: the history ends in the input the model is about to answer. */
  tail: "request";
  /**
   * Whose rules the request was repaired under: the option, else the provider of the model called; undefined for a
   * model it cannot place (the checkpointer's default: what every provider rejects, and what a broken run left).
   */
  provider: ProviderRules | undefined;
  /** The model the request went to (another model's thinking blocks were dropped), when known. */
  model: string | undefined;
  /** Every change made to the request's messages, with removed messages whole. */
  repairs: Repair[];
}

/**
 * Options of {@link sanitizeMessagesMiddleware}: the checkpointer's `markers`, `bridgeRole`, `onRepair`, `provider`
 * and `model`.
 */
export interface SanitizeMessagesMiddlewareOptions extends SharedRepairOptions<ModelRequestRepairEvent> {
  /**
   * Whose own rules each request is repaired under (role order, empty turns, …). Unset, the rules of the provider the
   * request goes to, known by its LangChain chat model (`ChatAnthropic`, `ChatBedrockConverse`,
   * `ChatGoogleGenerativeAI`, `ChatVertexAI`, `ChatMistralAI`, `ChatOpenAI` and the server it is pointed at,
   * `AzureChatOpenAI`, `ChatGroq`, `ChatOllama`, `ChatCohere`, `ChatDeepSeek`, `ChatXAI`, `ChatCerebras`, and these
   * given by name to `createAgent`). A model it cannot place is repaired as the checkpointer repairs by default (what every
   * provider rejects, and what a broken run left), so a clean conversation reaches it exactly as without the
   * middleware; name its provider for more (`"strictest"`: every provider's rules).
   * @default the provider of the model called, else none
   */
  provider?: ProviderRules;
  /**
   * The model each request goes to: thinking blocks another model signed are dropped for it. Unset, the model the
   * request's chat model names.
   * @default the model called
   */
  model?: string;
}

/**
 * A `createAgent` middleware that repairs the messages of every model request right before the model is
 * called (see `repairMessages`, tail `"request"`): what a trim, a summary, a human-in-the-loop rejection
 * or another middleware broke inside a run is fixed before the provider sees it, and the role order is put
 * right for the provider the request goes to (Bedrock, Gemini, Anthropic, Mistral), not for the others. It
 * changes only the request, never the agent's state. Put it last in `middleware` so it sees the request as sent.
 * `configurable.sanitizer: "off"` turns it off for a call, as it does the checkpointer. A repaired request adds a
 * `SanitizeMessagesMiddleware` run (codes and actions, no content) to the trace of its model call, for LangSmith.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [summarization, sanitizeMessagesMiddleware()] });
 * ```
 */
export function sanitizeMessagesMiddleware(options: SanitizeMessagesMiddlewareOptions = {}): AgentMiddleware {
  const { repair, onRepair, telemetry: telemetryOption } = resolveRepairOptions(options);
  const telemetry = ReadTelemetry.create(telemetryOption, { entryPoint: "middleware" });
  return createMiddleware({
    name: "SanitizeMessagesMiddleware",
    wrapModelCall: async (request, handler) => {
      // The model node's config: its callbacks trace the model call.
      const nodeConfig = AsyncLocalStorageProviderSingleton.getRunnableConfig();
      // langchain hands middleware the run's configurable since 1.2.28; before, the model node's ambient config has it.
      const configurable = request.runtime.configurable ?? nodeConfig?.configurable;
      if (policyFor({ configurable }, "auto") === "off") return handler(request);
      if (telemetry?.loading) await telemetry.loading;
      const provider = repair.provider ?? providerOfModel(request.model);
      const model = repair.model ?? modelNameOf(request.model);
      const store = repair.store ?? storeOfModel(request.model);
      const settings = withRules(repair, provider, model, store);
      const started = telemetry?.begin();
      const { messages, repairs } = repairWith(request.messages, settings, "request");
      telemetry?.record("wrapModelCall", "request", provider ?? "none", repairs, started);
      if (repairs.length === 0) return handler(request);
      const threadId = configurable?.thread_id;
      onRepair?.({ operation: "wrapModelCall", threadId, tail: "request", provider, model, repairs });
      await traceRequestRepair(nodeConfig, { provider, model, repairs });
      return handler({ ...request, messages: messages as BaseMessage[] });
    },
  });
}
