import { GEMINI_SIGNATURES_KEY, SKIP_SIGNATURE, unsignedFirstCall } from "../../messages/gemini-signatures.js";
import { definePattern } from "../rules/define-pattern.js";
import { replyWith } from "../copies/message-copies.js";

type Loose = Record<string, unknown>;

export const unsignedGeminiCall = definePattern({
  code: "T",
  kind: "unsigned-gemini-call",
  summary: "a Gemini 3 call that lost its thought signature",
  shape:
    "a reply of the current turn whose first call lost its Gemini thought signature (a message rewritten or " +
    "merged, or a call another model made): Gemini 3 rejects it",
  repair:
    "rewrite a copy whose call carries Gemini's documented skip_thought_signature_validator; signatures that are " +
    "there stay with their calls through every id rewrite",
  applies: ["provider"],
  reply: {
    // Last: it signs the calls the reply goes out with, after every other rule wrote its copy.
    readsParts: ["last-turn"],
    finds: (m, at) => at.index >= at.lastTurn && unsignedFirstCall(m) !== undefined,
    fix: (m, at) => {
      const kwargs = ((m as Loose).additional_kwargs ?? {}) as Loose;
      // Keyed by the id the call goes out with: a call renamed from an id several calls share keeps no key of its own.
      const id = at.renamed?.get(at.index)?.[0] ?? unsignedFirstCall(m)!;
      const signatures = { ...(kwargs[GEMINI_SIGNATURES_KEY] as Loose | undefined), [id]: SKIP_SIGNATURE };
      return replyWith(m, { additional_kwargs: { ...kwargs, [GEMINI_SIGNATURES_KEY]: signatures } });
    },
  },
});
