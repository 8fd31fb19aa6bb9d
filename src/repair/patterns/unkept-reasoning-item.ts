import { hasUnkeptReasoning, isUnkeptOutputReasoning, replayedOutput } from "../../messages/responses-items.js";
import { definePattern } from "../rules/define-pattern.js";
import { withoutOutputItems } from "../copies/reply-copies.js";
import { replyWith } from "../copies/message-copies.js";

type Loose = Record<string, unknown>;

export const unkeptReasoningItem = definePattern({
  code: "V",
  kind: "unkept-reasoning-item",
  summary: "a Responses reasoning item the API never kept",
  shape:
    "a Responses reasoning item the API cannot find: kept only by its id (no encrypted_content) from a response " +
    "that never completed (a partial reply saved on stop), or that store: false never kept",
  repair: "rewrite a copy without it, dropped whole (reported)",
  applies: ["anywhere"],
  reply: {
    readsParts: ["output", "reasoning"],
    finds: (m, at) => hasUnkeptReasoning(m, at.store),
    fix: (m, at) => {
      if (replayedOutput(m)) {
        return withoutOutputItems(m, (output, i) => isUnkeptOutputReasoning(m, output[i], at.store));
      }
      const { reasoning: _unkept, ...kwargs } = (m as Loose).additional_kwargs as Loose;
      return replyWith(m, { additional_kwargs: kwargs });
    },
  },
});
