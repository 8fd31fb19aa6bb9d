/** fast-check generators of chat histories, broken and clean. */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";

type Op =
  | { t: "human" }
  | { t: "reply" }
  | { t: "empty" }
  | { t: "calls"; n: number; invalid: boolean; reuse: boolean }
  | { t: "result"; pick: number }
  | { t: "orphan" };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ t: "human" } as Op) },
  { weight: 3, arbitrary: fc.constant({ t: "reply" } as Op) },
  { weight: 1, arbitrary: fc.constant({ t: "empty" } as Op) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("calls" as const), n: fc.integer({ min: 1, max: 3 }), invalid: fc.boolean(), reuse: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant("result" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ t: "orphan" } as Op) },
);

/**
 * Any history: turns in any order, tool calls (some invalid, some reusing ids
 * across turns like some providers do) answered late, twice, out of order or
 * not at all, orphan results, empty replies, an optional leading system prompt.
 */
export const anyHistory: fc.Arbitrary<BaseMessage[]> = fc
  .tuple(fc.boolean(), fc.array(op, { maxLength: 30 }))
  .map(([withSystem, ops]) => {
    const out: BaseMessage[] = withSystem ? [new SystemMessage({ id: "sys", content: "system prompt" })] : [];
    const declared: string[] = [];
    let fresh = 0;
    ops.forEach((o, i) => {
      const id = `m${i}`;
      switch (o.t) {
        case "human":
          out.push(new HumanMessage({ id, content: `question ${i}` }));
          break;
        case "reply":
          out.push(new AIMessage({ id, content: `answer ${i}` }));
          break;
        case "empty":
          out.push(new AIMessage({ id, content: "" }));
          break;
        case "calls": {
          const ids = Array.from({ length: o.n }, (_, k) => (o.reuse ? `call_${k}` : `c${fresh++}`));
          declared.push(...ids);
          const [first, ...rest] = ids;
          const asCalls = (list: string[]) => list.map((c) => ({ id: c, name: `tool_${c}`, args: {}, type: "tool_call" as const }));
          out.push(
            new AIMessage({
              id,
              content: "",
              tool_calls: asCalls(o.invalid ? [first!] : ids),
              invalid_tool_calls: o.invalid ? rest.map((c) => ({ id: c, name: `tool_${c}`, args: "{", error: "bad json", type: "invalid_tool_call" as const })) : [],
            }),
          );
          break;
        }
        case "result":
          if (declared.length === 0) break;
          out.push(new ToolMessage({ id, content: `result ${i}`, tool_call_id: declared[o.pick % declared.length]!, name: "tool" }));
          break;
        case "orphan":
          out.push(new ToolMessage({ id, content: `orphan ${i}`, tool_call_id: `ghost${i}`, name: "tool" }));
          break;
      }
    });
    return out;
  });

/** A well-formed history that ends with a finished turn: every call answered in order, every turn closed. */
export const cleanHistory: fc.Arbitrary<BaseMessage[]> = fc
  .array(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }), { maxLength: 8 })
  .map((turns) => {
    const out: BaseMessage[] = [new SystemMessage({ id: "sys", content: "system prompt" })];
    let n = 0;
    turns.forEach((steps, t) => {
      out.push(new HumanMessage({ id: `h${t}`, content: `question ${t}` }));
      for (const callCount of steps.filter((c) => c > 0)) {
        const ids = Array.from({ length: callCount }, () => `c${n++}`);
        out.push(new AIMessage({ id: `a${n}`, content: "", tool_calls: ids.map((id) => ({ id, name: "t", args: {}, type: "tool_call" as const })) }));
        for (const id of ids) out.push(new ToolMessage({ id: `r${id}`, content: "ok", tool_call_id: id }));
      }
      out.push(new AIMessage({ id: `f${t}`, content: `answer ${t}` }));
    });
    return out;
  });

/**
 * A well-formed history as a model call sends it: a clean history followed by the new input, or with its last
 * reply not given yet, so that it ends in tool results (or the question).
 */
export const cleanRequestHistory: fc.Arbitrary<BaseMessage[]> = fc
  .tuple(cleanHistory, fc.constantFrom("new input", "awaiting reply"))
  .map(([history, end]) =>
    end === "new input" ? [...history, new HumanMessage({ id: "next", content: "next question" })] : history.slice(0, -1),
  );
