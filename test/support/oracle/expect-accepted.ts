import type { BaseMessage } from "@langchain/core/messages";
import { expect } from "vitest";
import type { ProviderChoice } from "../../../src/repair/rules/provider-patterns.js";
import { rejectingProviders, WIRE_PROFILES, type WireProfile } from "./provider-rejections.js";

/** Asserts every provider profile accepts `messages`. */
export function expectAcceptedByAllProviders(messages: readonly unknown[]): void {
  expect(rejectingProviders(messages as BaseMessage[])).toEqual({});
}

/** The profiles a `provider` stands for where its name is not one. */
const STANDS_FOR: Partial<Record<ProviderChoice, readonly WireProfile[]>> = {
  strictest: WIRE_PROFILES,
  openai: ["openai", "openai-responses"],
  vertex: ["gemini"],
};

/**
 * The wire profiles whose rules the `provider` option stands for. The strict fake models know the first providers;
 * the others are judged by the provider emulator through their real clients (test/unit/wire/).
 */
export function profilesOf(provider: ProviderChoice): readonly WireProfile[] {
  return STANDS_FOR[provider] ?? WIRE_PROFILES.filter((profile) => profile === provider);
}

/** Asserts the providers `provider` stands for accept `messages`. */
export function expectAcceptedUnder(provider: ProviderChoice, messages: readonly unknown[]): void {
  expect(rejectingProviders(messages as BaseMessage[], profilesOf(provider))).toEqual({});
}

/** The `provider` option for the rules of `profile` (the Responses API follows OpenAI's role order). */
export const rulesOf = (profile: WireProfile): ProviderChoice => (profile === "openai-responses" ? "openai" : profile);
