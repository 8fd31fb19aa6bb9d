// The middleware's repairs in the app's traces (LangSmith, or any LangChain tracer): a child run of the model call it
// repaired, named for the sanitizer, beside the chat model's own run. langchain hands the chat model the node's config,
// not the request, so the repair cannot go in that run's metadata; a child run of the same call can.
import { RunnableLambda, type RunnableConfig } from "@langchain/core/runnables";
import type { Repair } from "../repair/report/catalog.js";

/** The name of the run a repaired request adds to its model call's trace. */
export const REPAIR_RUN_NAME = "SanitizeMessagesMiddleware";

/** What the run records of one repaired request: codes, actions and positions, never a message's content. */
export interface RequestRepairSummary {
  provider: string | undefined;
  model: string | undefined;
  repairs: readonly Repair[];
}

/** Adds the repair run under the run `config` belongs to (the model call), when a tracer is listening. */
export async function traceRequestRepair(config: RunnableConfig | undefined, summary: RequestRepairSummary) {
  if (config?.callbacks === undefined) return;
  const codes = [...new Set(summary.repairs.map((r) => r.code))].sort();
  const repairs = summary.repairs.map(({ code, kind, action, index, messageId, toolCallId }) => ({
    code,
    kind,
    action,
    index,
    ...(messageId !== undefined ? { messageId } : {}),
    ...(toolCallId !== undefined ? { toolCallId } : {}),
  }));
  await RunnableLambda.from(() => ({ repairs })).invoke(
    { provider: summary.provider ?? null, model: summary.model ?? null, codes },
    {
      callbacks: config.callbacks,
      runName: REPAIR_RUN_NAME,
      metadata: { checkpoint_sanitizer_codes: codes, checkpoint_sanitizer_repairs: repairs.length },
    },
  );
}
