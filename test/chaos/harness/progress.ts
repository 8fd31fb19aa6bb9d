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

  private last: Landing = "between nodes";

  /**
   * `parallel`: how many calls the model made in this turn; `onChange`: told where the run is each time that
   * changes (a worker process reports it to the soak, which kills it).
   */
  constructor(
    private readonly parallel: number,
    private readonly onChange?: (where: Landing) => void,
  ) {
    super();
  }

  override handleChatModelStart(): void {
    this.set("waiting");
  }

  override handleLLMNewToken(): void {
    this.set("streaming");
  }

  override handleLLMEnd(): void {
    this.set("idle");
  }

  override handleLLMError(): void {
    this.set("idle");
  }

  toolStarted(): void {
    this.toolsActive++;
    this.changed();
  }

  toolEnded(): void {
    this.toolsActive--;
    this.changed();
  }

  private set(model: RunProgress["model"]): void {
    this.model = model;
    this.changed();
  }

  private changed(): void {
    if (this.onChange === undefined) return;
    const where = this.where();
    if (where === this.last) return;
    this.last = where;
    this.onChange(where);
  }

  where(): Landing {
    if (this.toolsActive > 0) return this.parallel > 1 ? "during one of several parallel tools" : "during a tool";
    if (this.model === "streaming") return "while the model streams";
    if (this.model === "waiting") return "waiting for the model";
    return "between nodes";
  }
}
