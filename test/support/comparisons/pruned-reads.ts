/**
 * Reads of one thread before and after a prune, and of a pruned thread against an unpruned copy, made comparable:
 * what a prune may change (parent links) and what is random per read or per run (ids) taken out, nothing else.
 */
import { canonicalIds, plain } from "./conversation-record.js";

/**
 * `value` as JSON without parent links, which retention relinks past what it removed, and with message ids numbered
 * by first appearance: a message a read builds from a stored input or write gets a new id at each read.
 */
export function unlinked(value: unknown): unknown {
  const ids = new Map<unknown, string>();
  return JSON.parse(
    JSON.stringify(plain(value), (key, v) => {
      if (key === "parentConfig" || key === "parent_config") return undefined;
      if (v && typeof v === "object" && "class" in v && "id" in v) {
        if (!ids.has(v.id)) ids.set(v.id, `<message ${ids.size + 1}>`);
        return { ...v, id: ids.get(v.id) };
      }
      return v;
    }),
  );
}

/**
 * `value` with every UUID (`canonicalIds`) and every call id the repair replaced numbered by first appearance: such
 * an id (a call id another run reused) is derived from its message's id, random per run.
 */
export function canonicalRun(value: unknown): unknown {
  const calls = new Map<string, string>();
  const text = JSON.stringify(canonicalIds(plain(value))).replace(/sanitizer_[0-9a-z]+/g, (id) => {
    if (!calls.has(id)) calls.set(id, `<call ${calls.size + 1}>`);
    return calls.get(id)!;
  });
  return JSON.parse(text);
}
