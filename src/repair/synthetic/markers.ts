import { InvalidOptionError } from "../../options/invalid-option-error.js";

/** Texts of the messages the sanitizer inserts; cause-neutral: it sees that a reply is missing, not why. */
export interface MarkerTexts {
  /** `missing-reply`: the reply a HumanMessage never got. */
  missingReply: string;
  /** `unanswered-tool-calls`, `partly-answered-tool-calls`, `unanswered-hidden-call`: a placeholder tool result. */
  missingToolResult: string;
  /** `unclosed-tool-results`: closes tool results no AIMessage followed. */
  missingReplyAfterTools: string;
  /** `leading-reply`: before a history that starts with a reply. */
  missingOpening: string;
  /** `consecutive-replies`: between two replies in a row. */
  missingTurnBetweenReplies: string;
  /** `empty-tool-result`: a ToolMessage that had no content. */
  emptyToolResult: string;
  /** `empty-user-turn`: a HumanMessage that had no content. */
  emptyMessage: string;
  /** `request-ends-on-reply`: after a reply that ends a model request. */
  continueAfterReply: string;
}

/** `"en"` (default) and `"ko"` (the originating team's texts). */
export const MARKER_PRESETS: Readonly<Record<"en" | "ko", Readonly<MarkerTexts>>> = Object.freeze({
  en: Object.freeze({
    missingReply: "[No reply was recorded for the previous message.]",
    missingToolResult: "[No result was recorded for this tool call.]",
    missingReplyAfterTools: "[No reply was recorded after these tool results.]",
    missingOpening: "[No earlier message was recorded.]",
    missingTurnBetweenReplies: "[No message was recorded between these replies.]",
    emptyToolResult: "[The tool returned no output.]",
    emptyMessage: "[Empty message.]",
    continueAfterReply: "[Continue.]",
  }),
  ko: Object.freeze({
    missingReply: "[직전 turn 응답 중단됨, 함께 종합해 답하라]",
    missingToolResult: "[도구 호출이 완료 전에 중단됨]",
    missingReplyAfterTools: "[직전 turn 응답이 도구 결과 후 중단됨]",
    missingOpening: "[이전 메시지가 기록되지 않음]",
    missingTurnBetweenReplies: "[두 응답 사이에 기록된 메시지 없음]",
    emptyToolResult: "[도구 출력 없음]",
    emptyMessage: "[빈 메시지]",
    continueAfterReply: "[계속]",
  }),
});

/** Missing keys fall back to `"en"`. */
export type MarkerOption = keyof typeof MARKER_PRESETS | Partial<MarkerTexts>;

const KEYS = Object.keys(MARKER_PRESETS.en);

/** Throws an {@link InvalidOptionError} on an unknown preset or key (a misspelt one would be ignored) or empty text. */
export function resolveMarkers(option: MarkerOption | undefined): Readonly<MarkerTexts> {
  if (option === undefined) return MARKER_PRESETS.en;
  if (typeof option === "string" && Object.hasOwn(MARKER_PRESETS, option)) return MARKER_PRESETS[option];
  if (typeof option !== "object" || option === null || Array.isArray(option)) {
    const presets = Object.keys(MARKER_PRESETS);
    throw new InvalidOptionError(
      `markers must be "en", "ko" or an object of custom texts, got ${JSON.stringify(option)}.`,
      { option: "markers", value: option, allowed: presets },
    );
  }
  for (const key of Object.keys(option)) {
    if (!KEYS.includes(key)) {
      throw new InvalidOptionError(`markers.${key} is not a marker text: the keys are ${KEYS.join(", ")}.`, {
        option: `markers.${key}`,
        value: (option as Record<string, unknown>)[key],
        allowed: KEYS,
      });
    }
  }
  const texts = { ...MARKER_PRESETS.en, ...option };
  for (const [key, text] of Object.entries(texts)) {
    if (typeof text !== "string" || text.trim() === "") {
      throw new InvalidOptionError(`markers.${key} must be a non-empty string.`, {
        option: `markers.${key}`,
        value: text,
      });
    }
  }
  return Object.freeze(texts);
}
