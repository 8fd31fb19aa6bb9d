// The duck-typed message reads agree with the definitions they stand in for.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasEmptyContent, roleOf } from "../../../src/messages/message-view.js";

const WHITESPACE = [
  "\t",
  "\n",
  "\v",
  "\f",
  "\r",
  " ",
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
  "\u200b",
];

describe("message reads", () => {
  it("treats text as empty exactly when String.prototype.trim leaves nothing", () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom(...WHITESPACE), fc.string({ unit: "grapheme", maxLength: 2 })), { maxLength: 6 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, (content) => {
        expect(hasEmptyContent({ type: "ai", content })).toBe(content.trim() === "");
        expect(hasEmptyContent({ type: "ai", content: [{ type: "text", text: content }] })).toBe(content.trim() === "");
      }),
      { numRuns: 2000 },
    );
  });

  it("reads roles from LangChain types and OpenAI-style roles alike", () => {
    const cases: Array<[object, string]> = [
      [{ type: "human" }, "human"],
      [{ role: "user" }, "human"],
      [{ type: "ai" }, "ai"],
      [{ role: "assistant" }, "ai"],
      [{ type: "tool" }, "tool"],
      [{ type: "system" }, "system"],
      [{ role: "developer" }, "system"],
      [{ type: "generic", role: "assistant" }, "ai"],
      [{ type: "remove" }, "other"],
      [{ role: "function" }, "other"],
      [{}, "other"],
    ];
    for (const [message, role] of cases) expect(roleOf(message), JSON.stringify(message)).toBe(role);
  });
});
