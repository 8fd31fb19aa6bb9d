import type { BaseMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { policyFor } from "../options/policy.js";
import { resolveRepairOptions, type SharedRepairOptions } from "../options/shared-options.js";
import type { Repair } from "../repair/report/catalog.js";
import type { ProviderChoice } from "../repair/rules/provider-patterns.js";
import { repairWith } from "../repair/repair-messages.js";
import { withRules } from "../repair/settings.js";
import { ReadTelemetry } from "../telemetry/read-telemetry.js";
import { modelNameOf, providerOfModel, storeOfModel } from "./model-provider.js";
import { traceRequestRepair } from "./repair-run.js";

/** Reported through `onRepair` for each repaired model request. */
export interface ModelRequestRepairEvent {
  operation: "wrapModelCall";
  threadId: string | undefined;
  /** The history ends in the input the model is about to answer. */
  tail: "request";
  /** The option, else the provider of the model called; undefined for a model it cannot place. */
  provider: ProviderChoice | undefined;
  /** When known. */
  model: string | undefined;
  /** Removed messages are included whole. */
  repairs: Repair[];
}

/** Options of {@link sanitizeMessagesMiddleware}: the checkpointer's repair rules, `onRepair` and `telemetry`. */
export type SanitizeMessagesMiddlewareOptions = SharedRepairOptions<ModelRequestRepairEvent>;

/**
 * A `createAgent` middleware that repairs each model request right before the model is called (tail `"request"`),
 * under the rules of the provider and model it goes to (docs/create-agent.md). It changes only the request, never
 * the agent's state. Put it last in `middleware`. `configurable.tailPolicy: "off"` turns it off for a call.
 *
 * @throws InvalidOptionError on bad options, when called
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
