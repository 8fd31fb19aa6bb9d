import { isPausedTurn } from "../../messages/anthropic-blocks.js";
import { definePattern } from "../rules/define-pattern.js";
import { HumanMessage } from "@langchain/core/messages";
import { SYNTHETIC_ID_PREFIX } from "../synthetic/inserted-messages.js";

export const requestEndsOnReply = definePattern({
  code: "Z",
  kind: "request-ends-on-reply",
  summary: "a model request that ends on a reply",
  shape:
    "a model request that ends on a reply (the middleware's requests; a read is followed by new input): the models " +
    "without assistant prefill (Claude 4.6 and newer), Gemini and Mistral reject it, and so does every provider where " +
    "the repair made that end. A turn the API paused (pause_turn) is sent back to be continued and stays",
  repair: "append a marker HumanMessage",
  applies: ["leftovers", "provider"],
  // Gemini: "multiturn requests ends with a user role or a function response"; Mistral: "Expected last role User or
  // Tool (or Assistant with prefix True)"; Claude 4.6+: no prefill.
  boundary: {
    after: "ai",
    before: "request",
    exempt: isPausedTurn,
    insert: (around, texts) =>
      new HumanMessage({ id: `${SYNTHETIC_ID_PREFIX}continue-${around.next}`, content: texts.continueAfterReply }),
  },
});
