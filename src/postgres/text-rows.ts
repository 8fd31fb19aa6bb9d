// Results in PostgreSQL's text format, parsed by this query alone: every column the read statement selects is text
// (read-sql.ts), kept as the string node-postgres decodes from the wire. The parsers are passed per query, so the app's
// global `pg.types` settings neither affect these reads nor are changed by them.
import type { CustomTypesConfig, QueryConfig } from "pg";

const TEXT = 25;

const types = {
  getTypeParser: (oid: number, format: "binary" | "text" = "text") => {
    if (oid !== TEXT || format !== "text") {
      throw new Error(`FastPostgresSaver: unexpected ${format} column of type ${oid} in a result.`);
    }
    return (value: string) => value;
  },
} as unknown as CustomTypesConfig;

export const textQuery = (text: string, values: unknown[]): QueryConfig => ({ text, values, types });
