import type { BaseMessage } from "@langchain/core/messages";
import { expect } from "vitest";
import { rejectingProviders } from "./provider-rules.js";

/** Asserts every provider profile accepts `messages`, followed by a new user turn when `thenUser`. */
export function expectAcceptedByAllProviders(messages: readonly unknown[]): void {
  expect(rejectingProviders(messages as BaseMessage[])).toEqual({});
}
