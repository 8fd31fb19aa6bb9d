// The names and values a release renamed keep working as their new ones (docs/tail-policy.md, "Deprecated names").
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  repairMessages,
  type ProviderChoice,
  type ProviderRules,
  type RepairRules,
  type RepairSettings,
  type SanitizerPolicy,
  type TailKind,
  type TailMode,
  type TailPolicy,
} from "../../../src/index.js";
import { calls, human, reply, result } from "../../support/generators/messages.js";

const stopped = () => [human("h1"), calls("a1", "c1", "c2"), result("r1", "c1")];
const resumable = () => [human("h1"), reply("a1"), human("h2")];

describe("deprecated names", () => {
  it('tail "repair" repairs as "stopped", and "preserve" as "resumable"', () => {
    expect(repairMessages(stopped(), { tail: "repair" })).toEqual(repairMessages(stopped(), { tail: "stopped" }));
    expect(repairMessages(stopped(), { tail: "stopped" }).repairs.length).toBeGreaterThan(0);
    expect(repairMessages(resumable(), { tail: "preserve" })).toEqual(
      repairMessages(resumable(), { tail: "resumable" }),
    );
  });

  it("the old type names are the new types", () => {
    expectTypeOf<SanitizerPolicy>().toEqualTypeOf<TailPolicy>();
    expectTypeOf<RepairRules>().toEqualTypeOf<RepairSettings>();
    expectTypeOf<ProviderRules>().toEqualTypeOf<ProviderChoice>();
    expectTypeOf<TailKind>().toMatchTypeOf<TailMode>();
    expectTypeOf<"repair" | "preserve">().toMatchTypeOf<TailMode>();
  });
});
