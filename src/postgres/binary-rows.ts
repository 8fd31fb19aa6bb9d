/**
 * Results in PostgreSQL's binary format, parsed by this query alone. A bytea
 * then arrives as its bytes rather than as hex text to decode, which is most
 * of what a read of a long thread costs. node-postgres decodes each binary
 * value as UTF-8 and re-encodes it into a Buffer before parsing, so only text
 * and UTF-8 bytes survive the trip: read-sql.ts selects nothing else. The
 * parsers are passed per query, so the app's global `pg.types` settings
 * neither affect these reads nor are changed by them.
 *
 * @internal
 */
import type { CustomTypesConfig, QueryConfig } from "pg";

const TEXT = 25;
const BYTEA = 17;

type Parser = (value: Buffer | string) => unknown;

/** Binary values, and text ones for a node-postgres that would send the query unprepared (text results). */
const PARSERS: Record<number, Record<"binary" | "text", Parser>> = {
  [TEXT]: { binary: (value) => value.toString("utf8"), text: (value) => value },
  // A binary value is a fresh Buffer, kept as is; a text one is `\x` and hex digits.
  [BYTEA]: { binary: (value) => value, text: (value) => Buffer.from((value as string).slice(2), "hex") },
};

const types = {
  getTypeParser: (oid: number, format: "binary" | "text" = "text") => {
    const parser = PARSERS[oid]?.[format];
    if (!parser) throw new Error(`FastPostgresSaver: unexpected column type ${oid} in a result.`);
    return parser;
  },
} as unknown as CustomTypesConfig;

/**
 * A query whose results come back binary, for columns of type text and bytea
 * only: prepared even without parameters (text results otherwise). `binary`
 * and `queryMode` are per-query options of node-postgres that its types omit.
 */
type BinaryQueryConfig = QueryConfig & { binary: true; queryMode: "extended" };

export const binaryQuery = (text: string, values: unknown[]): BinaryQueryConfig => ({
  text,
  values,
  binary: true,
  queryMode: "extended",
  types,
});
