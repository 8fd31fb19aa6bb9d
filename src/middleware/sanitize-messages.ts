import type { BaseMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { policyFor, resolveRepairOptions, type SharedRepairOptions } from "../options.js";
import type { Repair } from "../repair/patterns.js";
import { repairMessages } from "../repair/repair-messages.js";

/** Reported through `onRepair` for each model request the middleware repaired. */
export interface ModelRequestRepairEvent {
  operation: "wrapModelCall";
  /** `configurable.thread_id` of the run, when it has one. */
  threadId: string | undefined;
  /** Always `"request"`: the history ends in the input the model is about to answer. */
  tail: "request";
  /** Every change made to the request's messages, with removed messages whole. */
  repairs: Repair[];
}

/** Options of {@link sanitizeMessagesMiddleware}: the checkpointer's `markers`, `bridgeRole` and `onRepair`. */
export type SanitizeMessagesMiddlewareOptions = SharedRepairOptions<ModelRequestRepairEvent>;

/**
 * A `createAgent` middleware that repairs the messages of every model request right before the model is
 * called (see `repairMessages`, tail `"request"`): what a trim, a summary, a human-in-the-loop rejection
 * or another middleware broke inside a run is fixed before the provider sees it. It changes only the
 * request, never the agent's state. Put it last in `middleware` so it sees the request as sent.
 * `configurable.sanitizer: "off"` turns it off for a call, as it does the checkpointer.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [summarization, sanitizeMessagesMiddleware()] });
 * ```
 */
export function sanitizeMessagesMiddleware(options: SanitizeMessagesMiddlewareOptions = {}): AgentMiddleware {
  const { repair, onRepair } = resolveRepairOptions(options);
  return createMiddleware({
    name: "SanitizeMessagesMiddleware",
    wrapModelCall: (request, handler) => {
      // langchain hands middleware the run's configurable since 1.2.28; before, the model node's ambient config has it.
      const configurable =
        request.runtime.configurable ?? AsyncLocalStorageProviderSingleton.getRunnableConfig()?.configurable;
      if (policyFor({ configurable }, "auto") === "off") return handler(request);
      const { messages, repairs } = repairMessages<BaseMessage>(request.messages, { ...repair, tail: "request" });
      if (repairs.length === 0) return handler(request);
      onRepair?.({ operation: "wrapModelCall", threadId: configurable?.thread_id, tail: "request", repairs });
      return handler({ ...request, messages });
    },
  });
}
