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
 * Options of {@link sanitizeMessagesMiddleware}: the checkpointer's repair rules (`provider`, `model`, `store`,
 * `markers`, `bridgeRole`), `onRepair` and `telemetry`, each documented once, with its default, on `RepairRules`
 * and {@link SharedRepairOptions}.
 */
export type SanitizeMessagesMiddlewareOptions = SharedRepairOptions<ModelRequestRepairEvent>;

/**
 * A `createAgent` middleware that repairs the messages of every model request right before the model is
 * called (see `repairMessages`, tail `"request"`): what a trim, a summary, a human-in-the-loop rejection
 * or another middleware broke inside a run is fixed before the provider sees it, and each request is repaired under
 * the rules of the provider and model it goes to, as the provider table has them (docs/providers.md), unless
 * `provider` or `model` is set. It changes only the request, never the agent's state. Put it last in `middleware`
 * so it sees the request as sent. `configurable.sanitizer: "off"` turns it off for a call, as it does the
 * checkpointer. A repaired request adds a `SanitizeMessagesMiddleware` run (codes and actions, no content) to the
 * trace of its model call, for LangSmith.
 *
 * Its options are validated when it is called (an `InvalidOptionError`); an unknown `configurable.sanitizer` fails
 * the model call that carries it.
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
