/**
 * Where a run is at any instant, to say where a cancellation landed: waiting for the model's first token, while
 * the model streams, during a tool (one of several parallel ones, or the only one), or between nodes (routing,
 * storing a checkpoint). The model's progress comes from the run's callbacks; the tools report their own.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";

export type Landing =
  | "waiting for the model"
  | "while the model streams"
  | "during one of several parallel tools"
  | "during a tool"
  | "between nodes"
  | "paused at interrupt()";

export class RunProgress extends BaseCallbackHandler {
  name = "chaos-run-progress";
  // Inline, so that the state is current when the cancellation fires.
  override awaitHandlers = true;
  private model: "idle" | "waiting" | "streaming" = "idle";
  private toolsActive = 0;

  /** `parallel`: how many calls the model made in this turn. */
  constructor(private readonly parallel: number) {
    super();
  }

  override handleChatModelStart(): void {
    this.model = "waiting";
  }

  override handleLLMNewToken(): void {
    this.model = "streaming";
  }

  override handleLLMEnd(): void {
    this.model = "idle";
  }

  override handleLLMError(): void {
    this.model = "idle";
  }

  toolStarted(): void {
    this.toolsActive++;
  }

  toolEnded(): void {
    this.toolsActive--;
  }

  where(): Landing {
    if (this.toolsActive > 0) return this.parallel > 1 ? "during one of several parallel tools" : "during a tool";
    if (this.model === "streaming") return "while the model streams";
    if (this.model === "waiting") return "waiting for the model";
    return "between nodes";
  }
}
