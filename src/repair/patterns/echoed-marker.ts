import { definePattern } from "../rules/define-pattern.js";
import { isSyntheticMessage } from "../synthetic/inserted-messages.js";

export const echoedMarker = definePattern({
  code: "AB",
  kind: "echoed-marker",
  summary: "the sanitizer's own message sent back in a run's input",
  shape:
    "a placeholder or marker a read inserted, sent back in the next run's input by a client that sends the state it read (CopilotKit's AG-UI adapter), where the stored history does not hold it",
  repair:
    "remove it (reported whole); the repair inserts what the history still needs, under the same id, so a marker never stands where the model's own reply now goes",
  applies: ["anywhere"],
  keepsNeighbours: true,
  // A message of the input (from `inputStart` on) that a read inserted.
  pairing: {
    step: "input",
    removes: (message, index, inputStart) => index >= inputStart && isSyntheticMessage(message),
  },
});
