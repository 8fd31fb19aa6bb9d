/** The copies the reply rules write: a reply without some of its content blocks or replayed output items. */
import { replyWith } from "./message-copies.js";

type Loose = Record<string, unknown>;

/** The content blocks of a reply (the rules that call this read only replies with block content). */
export const contentOf = (m: unknown) => (m as Loose).content as unknown[];

/** A copy of `m` with the content blocks `keep` keeps (a text content is kept whole). */
export const withContent = (m: unknown, keep: (block: unknown, i: number) => boolean) => {
  const content = (m as Loose).content;
  return replyWith(m, { content: Array.isArray(content) ? content.filter(keep) : content });
};

/**
 * A copy of `m` without the replayed output items `drop` picks, and without the reasoning item `additional_kwargs`
 * holds when it is one of them (ChatOpenAI sends that one when the output is left empty).
 */
export function withoutOutputItems(m: unknown, drop: (output: readonly unknown[], i: number) => boolean): unknown {
  const metadata = (m as Loose).response_metadata as Loose;
  const output = metadata.output as unknown[];
  const dropped = new Set(output.filter((_, i) => drop(output, i)).map((item) => (item as Loose).id));
  let kwargs = (m as Loose).additional_kwargs as Loose | undefined;
  const kept = (kwargs?.reasoning as Loose | undefined)?.id;
  if (kwargs !== undefined && typeof kept === "string" && dropped.has(kept)) {
    const { reasoning: _dropped, ...rest } = kwargs;
    kwargs = rest;
  }
  return replyWith(m, {
    response_metadata: { ...metadata, output: output.filter((_, i) => !drop(output, i)) },
    additional_kwargs: kwargs,
  });
}
